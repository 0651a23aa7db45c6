<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="ja_JP">
<context>
    <name />
    <message>
        <location filename="../../monet_app/window/desktop.py" line="136" />
        <source>MONET is already running on this data folder ({home}); its window was brought forward.</source>
        <translation>このデータフォルダ ({home}) の MONET はすでに起動しています。そのウィンドウを前面に出しました。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/desktop.py" line="138" />
        <source>MONET is already running on this data folder ({home}) but did not answer; it may be starting or closing. No second window was opened.</source>
        <translation>このデータフォルダ ({home}) の MONET はすでに起動していますが、応答がありません。起動中か終了中かもしれません。2つ目のウィンドウは開きませんでした。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/reach.py" line="44" />
        <source>Connecting to the shared history on {where}…</source>
        <extracomment>A server that answers at once opens without a dialog flashing by.</extracomment>
        <translation>共有の履歴 {where} に接続しています…</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/reach.py" line="49" />
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/reach.py" line="111" />
        <source>MONET cannot open the shared history.</source>
        <translation>MONET は共有の履歴を開けません。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/reach.py" line="113" />
        <source>Try again</source>
        <translation>もう一度試す</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/reach.py" line="114" />
        <source>Quit</source>
        <translation>終了</translation>
    </message>
</context>
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../../ui/about_dialog.py" line="38" />
        <source>About MONET</source>
        <translation>MONET について</translation>
    </message>
    <message>
        <location filename="../../ui/about_dialog.py" line="51" />
        <source>One continuous conversation with Claude per day, with a Timeline Index that keeps the prompt cache hitting.</source>
        <translation>Claude との会話を1日1本に。Timeline Index がプロンプトキャッシュを効かせ続けます。</translation>
    </message>
    <message>
        <location filename="../../ui/about_dialog.py" line="67" />
        <source>Open the data folder</source>
        <translation>データフォルダーを開く</translation>
    </message>
    <message>
        <location filename="../../ui/about_dialog.py" line="68" />
        <source>Show the data folder in the file manager</source>
        <translation>データフォルダーをファイルマネージャーで表示</translation>
    </message>
    <message>
        <location filename="../../ui/about_dialog.py" line="70" />
        <source>none (a new database)</source>
        <translation>なし（新しいデータベース）</translation>
    </message>
    <message>
        <location filename="../../ui/about_dialog.py" line="80" />
        <source>Data folder:</source>
        <translation>データフォルダー:</translation>
    </message>
    <message>
        <location filename="../../ui/about_dialog.py" line="83" />
        <source>Database schema:</source>
        <translation>データベースのスキーマ:</translation>
    </message>
    <message>
        <location filename="../../ui/about_dialog.py" line="85" />
        <source>Running on:</source>
        <translation>実行環境:</translation>
    </message>
    <message>
        <location filename="../../ui/about_dialog.py" line="92" />
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
</context>
<context>
    <name>AppController</name>
    <message>
        <location filename="../../monet_app/window/app.py" line="234" />
        <source>Promoted under {heading}; Claude reads it from the next message.</source>
        <extracomment>When the key is looked for after the window opens: after its first frames and the first rows' layout, and before anyone could have read the window and pasted a key. When what the first send and search would wait for is loaded on a thread of its own (``run.warm_up``): after the first frames, as the key lookup. A send sooner loads what it needs itself.</extracomment>
        <translation>「{heading}」に昇格しました。次のメッセージから Claude に渡されます。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/dialogs.py" line="103" />
        <source>Opening the demo in its own window…</source>
        <translation>デモを別のウィンドウで開いています…</translation>
    </message>
</context>
<context>
    <name>AttachChips</name>
    <message>
        <location filename="../../ui/attach_chips.py" line="40" />
        <source>Remove {name}</source>
        <translation>{name} を外す</translation>
    </message>
</context>
<context>
    <name>AttachFlow</name>
    <message>
        <location filename="../../monet_app/window/attach_flow.py" line="55" />
        <source>No program here opens {name}.</source>
        <extracomment>Above this many tokens in one file, its chip says so in words (a large PDF). A picture's copy on its chip: this many pixels high (twice that read, for sharp screens).</extracomment>
        <translation>{name} を開けるアプリがありません。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/attach_flow.py" line="104" />
        <source>about {n:,} tokens</source>
        <translation>約 {n:,} トークン</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/attach_flow.py" line="106" />
        <source>{n} pages</source>
        <translation>{n} ページ</translation>
    </message>
</context>
<context>
    <name>BackupFlow</name>
    <message>
        <location filename="../../monet_app/window/backup_flow.py" line="48" />
        <source>No backup yet</source>
        <translation>バックアップなし</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/backup_flow.py" line="49" />
        <source>Backed up {when}</source>
        <translation>バックアップ済み {when}</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/backup_flow.py" line="54" />
        <source>Backup made ({when}) in {folder}.</source>
        <translation>バックアップを作りました（{when}）: {folder}</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/backup_flow.py" line="59" />
        <source>Backup failed</source>
        <translation>バックアップ失敗</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/backup_flow.py" line="61" />
        <source>The backup failed: {problem} Your conversation is unchanged; MONET tries again in an hour (or MONET → Back up now).</source>
        <translation>バックアップに失敗しました: {problem} 会話は変わっていません。1時間後に再試行します（MONET → 今すぐバックアップ でも可）。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/backup_flow.py" line="74" />
        <source>Restoring once the librarian or the backup finishes…</source>
        <translation>ライブラリアンかバックアップが終わりしだい復元します…</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/backup_flow.py" line="100" />
        <source>Restored {n} messages from {file}; the replaced database is kept as{kept}.</source>
        <translation>{file} から {n} 件のメッセージを復元しました。置き換えたデータベースは{kept} として残してあります。</translation>
    </message>
</context>
<context>
    <name>ComposePane</name>
    <message>
        <location filename="../../ui/compose_pane.py" line="47" />
        <source>Editing your last message: Enter sends it in place of the old one and its reply; Esc cancels.</source>
        <translation>最後のメッセージを編集中: Enter で元のメッセージと返答に置き換えて送信、Esc で取り消し。</translation>
    </message>
    <message>
        <location filename="../../ui/compose_pane.py" line="53" />
        <source>Send</source>
        <translation>送信</translation>
    </message>
    <message>
        <location filename="../../ui/compose_pane.py" line="54" />
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../ui/compose_pane.py" line="55" />
        <source>Stop the reply (Esc)</source>
        <translation>返答を止める（Esc）</translation>
    </message>
    <message>
        <location filename="../../ui/compose_pane.py" line="60" />
        <source>Model for the next replies (Ctrl+Shift+M)</source>
        <translation>次の返事に使うモデル (Ctrl+Shift+M)</translation>
    </message>
    <message>
        <location filename="../../ui/compose_pane.py" line="74" />
        <source>Attach pictures or documents (Ctrl+Shift+A); pasting or dropping them on the message field works too</source>
        <translation>画像や文書を添付 (Ctrl+Shift+A)。メッセージ欄への貼り付けやドロップでも添付できます</translation>
    </message>
    <message>
        <location filename="../../ui/compose_pane.py" line="116" />
        <source>Attach pictures or documents</source>
        <translation>画像や文書を添付</translation>
    </message>
    <message>
        <location filename="../../ui/compose_pane.py" line="117" />
        <source>Pictures and documents (*.png *.jpg *.jpeg *.gif *.webp *.pdf *.txt *.md);;All files (*)</source>
        <translation>画像と文書 (*.png *.jpg *.jpeg *.gif *.webp *.pdf *.txt *.md);;すべてのファイル (*)</translation>
    </message>
    <message>
        <location filename="../../ui/compose_pane.py" line="149" />
        <source>Sending returns to today</source>
        <translation>送信すると今日に戻ります</translation>
    </message>
    <message>
        <location filename="../../ui/compose_pane.py" line="150" />
        <source>Message (Enter sends, Shift+Enter adds a line)</source>
        <translation>メッセージ（Enter で送信、Shift+Enter で改行）</translation>
    </message>
    <message>
        <location filename="../../ui/compose_pane.py" line="157" />
        <source>Message to {tab} (Enter sends, Shift+Enter adds a line)</source>
        <translation>{tab} へのメッセージ（Enter で送信、Shift+Enter で改行）</translation>
    </message>
</context>
<context>
    <name>DaysPane</name>
    <message>
        <location filename="../../ui/days_pane.py" line="38" />
        <source>New thread</source>
        <extracomment>True when the pane lists threads (the tab bar has nothing to do then), False for days</extracomment>
        <translation>新しいスレッド</translation>
    </message>
    <message>
        <location filename="../../ui/days_pane.py" line="64" />
        <source>Delete this day…</source>
        <translation>この日を削除…</translation>
    </message>
    <message>
        <location filename="../../ui/days_pane.py" line="67" />
        <source>Delete everything said on {day}? Claude will not see it again.</source>
        <translation>{day} の会話をすべて削除しますか？ Claude がこれを見ることはもうありません。</translation>
    </message>
    <message>
        <location filename="../../ui/days_pane.py" line="83" />
        <source>Days</source>
        <translation>日付</translation>
    </message>
    <message>
        <location filename="../../ui/days_pane.py" line="87" />
        <source>Today</source>
        <translation>今日</translation>
    </message>
    <message>
        <location filename="../../ui/days_pane.py" line="112" />
        <source>Threads</source>
        <translation>スレッド</translation>
    </message>
</context>
<context>
    <name>KeyBox</name>
    <message>
        <location filename="../../ui/key_box.py" line="38" />
        <source>Paste your Anthropic API key (sk-ant-…)</source>
        <translation>Anthropic の API キーを貼り付け（sk-ant-…）</translation>
    </message>
    <message>
        <location filename="../../ui/key_box.py" line="39" />
        <source>Use this key</source>
        <translation>このキーを使う</translation>
    </message>
    <message>
        <location filename="../../ui/key_box.py" line="40" />
        <source>Try the demo</source>
        <translation>デモを試す</translation>
    </message>
    <message>
        <location filename="../../ui/key_box.py" line="42" />
        <source>A sample history in its own window and throwaway folder; your data is not touched and nothing is sent anywhere.</source>
        <translation>サンプルの履歴を別のウィンドウと使い捨てのフォルダーで開きます。あなたのデータには触れず、どこにも何も送りません。</translation>
    </message>
    <message>
        <location filename="../../ui/key_box.py" line="66" />
        <source>Welcome to MONET</source>
        <translation>MONET へようこそ</translation>
    </message>
    <message>
        <location filename="../../ui/key_box.py" line="66" />
        <source>No API key yet</source>
        <translation>API キーがまだありません</translation>
    </message>
    <message>
        <location filename="../../ui/key_box.py" line="69" />
        <source>MONET keeps one conversation per day with Claude. To get answers it needs an Anthropic API key (console.anthropic.com → API keys). Until then you can write, browse and search: everything you type is kept.</source>
        <translation>MONET は Claude との会話を1日1本にまとめます。返答を受け取るには Anthropic の API キーが必要です（console.anthropic.com → API keys）。それまでも書く・読む・検索することはでき、入力した内容はすべて保存されます。</translation>
    </message>
    <message>
        <location filename="../../ui/key_box.py" line="73" />
        <source>The key goes to the system keyring; it is never written to a file.</source>
        <translation>キーはシステムのキーリングに保存され、ファイルには書かれません。</translation>
    </message>
    <message>
        <location filename="../../ui/key_box.py" line="75" />
        <source>No system keyring here: the key will be kept for this session only, until MONET quits. To keep it, set ANTHROPIC_API_KEY.</source>
        <translation>このシステムにはキーリングがありません。キーはこのセッションの間だけ、MONET を終了するまで保持されます。残すには ANTHROPIC_API_KEY を設定してください。</translation>
    </message>
</context>
<context>
    <name>KeyFlow</name>
    <message>
        <location filename="../../monet_app/window/key_flow.py" line="90" />
        <source>Key saved in the system keyring.</source>
        <extracomment>A check in the background answered: whether its answer was shown (False: too late, a newer check or a stored key came first, or the window was closing).</extracomment>
        <translation>キーをシステムのキーリングに保存しました。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/key_flow.py" line="91" />
        <source>Key kept for this session only; it is forgotten when MONET quits.</source>
        <translation>キーはこのセッションの間だけ保持します。MONET を終了すると消えます。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../ui/main_window.py" line="123" />
        <source>Retry</source>
        <extracomment>Below these window widths the side panes fold away, so the conversation stays the widest pane; they come back when the window widens again (or by View menu / keys). The window's panes, by attribute, and their classes: what the controller may call on each is the class's own methods, signals and properties (tests/test_parts.py). Visible keyboard focus on every list and field, in the palette's highlight colour. The border and padding add up to the same width focused or not, so focusing the transcript never changes its width (which would lay every message out again).</extracomment>
        <translation>再試行</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="128" />
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="129" />
        <source>Close this notice</source>
        <translation>このお知らせを閉じる</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/desktop.py" line="102" />
        <source>Send</source>
        <extracomment>How long quitting waits for work still running (a reply being stopped, a librarian pass). ``--smoke``: how long the window may take to paint before the check fails. ``monet --smoke`` asked for (``request_smoke``): the ``time.perf_counter()`` of the command's start (its imports not counted), used where the process's own start time cannot be read.</extracomment>
        <translation>送信</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="170" />
        <source>Settings…</source>
        <translation>設定…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="178" />
        <source>&amp;MONET</source>
        <translation>&amp;MONET</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="180" />
        <source>What MONET remembers…</source>
        <translation>MONET が覚えていること…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="183" />
        <source>Incognito today (nothing becomes a memory)</source>
        <translation>今日はシークレット（記憶に残さない）</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="187" />
        <source>Promote to lasting memory…</source>
        <translation>永続的な記憶に昇格…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="190" />
        <source>Search…</source>
        <translation>検索…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="196" />
        <source>Back up now</source>
        <translation>今すぐバックアップ</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="199" />
        <source>Restore from a backup…</source>
        <translation>バックアップから復元…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="202" />
        <source>Open the demo…</source>
        <translation>デモを開く…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="205" />
        <source>About MONET…</source>
        <translation>MONET について…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="210" />
        <source>Quit</source>
        <translation>終了</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="216" />
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="217" />
        <source>Days pane</source>
        <translation>日付の欄</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="222" />
        <source>Timeline and search pane</source>
        <translation>タイムラインと検索の欄</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="227" />
        <source>Next tab</source>
        <translation>次のタブ</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="230" />
        <source>Previous tab</source>
        <translation>前のタブ</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="233" />
        <source>Go to the message field</source>
        <translation>入力欄へ移動</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="236" />
        <source>Go to the days</source>
        <translation>日付の一覧へ移動</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="504" />
        <source>Restore from a backup</source>
        <translation>バックアップから復元</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="505" />
        <source>MONET backups (*.zip)</source>
        <translation>MONET のバックアップ (*.zip)</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="507" />
        <source>Replace everything in this data folder with the backup {file}? The current database is kept beside it as a dated copy.</source>
        <translation>このデータフォルダーの内容をバックアップ {file} で置き換えますか？ 今のデータベースは日付付きのコピーとして隣に残します。</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="274" />
        <source>All tabs</source>
        <translation>すべて</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="308" />
        <source>{day} is a past day, shown read-only. Sending posts to today.</source>
        <translation>{day} は過去の日です（読み取り専用）。送信すると今日の会話に入ります。</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="467" />
        <source>MONET — shared history on {where}</source>
        <translation>MONET — 共有の履歴（{where}）</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="473" />
        <source>MONET — demo</source>
        <translation>MONET — デモ</translation>
    </message>
</context>
<context>
    <name>MemoryDialog</name>
    <message>
        <location filename="../../ui/memory_dialog.py" line="65" />
        <source>What MONET remembers</source>
        <extracomment>How long a forgotten item can be brought back before it is deleted.</extracomment>
        <translation>MONET が覚えていること</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="81" />
        <source>Undo</source>
        <translation>元に戻す</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="94" />
        <source>Add…</source>
        <translation>追加…</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="96" />
        <source>Write something MONET should remember, in your own words; it replaces what it says changed.</source>
        <translation>MONET に覚えてほしいことを自分の言葉で書きます。変わったことなら、前の記憶と置き換わります。</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="99" />
        <source>Keep this one</source>
        <translation>こちらが正しい</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="101" />
        <source>Of two items that contradict each other, this one is true: Claude is told it from the next message, and the other becomes its history.</source>
        <translation>矛盾する2つのうち、こちらが正しいとします。次のメッセージから Claude に伝わり、もう一方はその履歴になります。</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="104" />
        <source>Correct…</source>
        <translation>訂正…</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="105" />
        <source>Forget</source>
        <translation>忘れる</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="107" />
        <source>Claude forgets it; the messages it came from stay in your history, hidden from Claude.</source>
        <translation>Claude はこれを忘れます。元のメッセージは履歴に残り、Claude からは見えなくなります。</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="109" />
        <source>Forget and delete its messages…</source>
        <translation>忘れて元のメッセージも削除…</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="117" />
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="123" />
        <source>Forgetting an item removes it from every later request, with the messages it came from: they stay in your history but Claude no longer sees them (or you delete them too). Correcting an item changes what Claude reads from the next message on.</source>
        <translation>忘れた項目は、その元になったメッセージとともにこれ以降どのリクエストにも入りません。メッセージは履歴に残りますが Claude からは見えなくなります（一緒に削除することもできます）。訂正すると次のメッセージから Claude が読む内容が変わります。</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="159" />
        <source>Preference</source>
        <translation>好み</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="160" />
        <source>Promise</source>
        <translation>約束</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="161" />
        <source>Done together</source>
        <translation>一緒にしたこと</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="162" />
        <source>Asked to remember</source>
        <translation>覚えてと頼まれたこと</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="163" />
        <source>Fact</source>
        <translation>事実</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="164" />
        <source>About you</source>
        <translation>あなたについて</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="175" />
        <source> (contradiction: Claude is not told it until you keep one)</source>
        <translation>（矛盾あり・どちらかを残すまで Claude には伝えません）</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="177" />
        <source> — before: {fact}</source>
        <translation> — 以前: {fact}</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="183" />
        <source>Nothing is remembered yet.</source>
        <translation>まだ何も覚えていません。</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="205" />
        <source>From: {source}</source>
        <translation>出典: {source}</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="206" />
        <source>Added by you on {day}</source>
        <translation>{day} にあなたが追加</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="208" />
        <source>Before: {fact} (remembered {day})</source>
        <translation>以前: {fact}（{day} に記憶）</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="214" />
        <source>Add</source>
        <translation>追加</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="214" />
        <source>What should MONET remember about you?</source>
        <translation>MONET に何を覚えておいてほしいですか？</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="231" />
        <source>Correct</source>
        <translation>訂正</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="231" />
        <source>What is true:</source>
        <translation>正しい内容:</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="256" />
        <source>Delete messages</source>
        <translation>メッセージの削除</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="257" />
        <source>Forget this item and delete the messages it came from (and Claude's replies to them) from your history? This cannot be undone.</source>
        <translation>この項目を忘れ、元になったメッセージ（と Claude の返答）を履歴から削除しますか？ 元に戻せません。</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="280" />
        <source>Forgotten, with its messages: {fact}</source>
        <translation>忘れました（元のメッセージも削除）: {fact}</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="281" />
        <source>Forgotten: {fact}</source>
        <translation>忘れました: {fact}</translation>
    </message>
</context>
<context>
    <name>MessageDelegate</name>
    <message>
        <location filename="../../ui/transcript/delegate.py" line="136" />
        <location filename="../../ui/transcript/delegate.py" line="546" />
        <source>Copy</source>
        <extracomment>The pictures' thumbnails, read on a worker (the view repaints when one is in).</extracomment>
        <translation>コピー</translation>
    </message>
    <message>
        <location filename="../../ui/transcript/delegate.py" line="137" />
        <location filename="../../ui/transcript/delegate.py" line="546" />
        <source>Copied</source>
        <translation>コピーしました</translation>
    </message>
    <message>
        <location filename="../../ui/transcript/delegate.py" line="262" />
        <source>You</source>
        <translation>あなた</translation>
    </message>
    <message>
        <location filename="../../ui/transcript/delegate.py" line="262" />
        <source>Tool</source>
        <translation>ツール</translation>
    </message>
    <message>
        <location filename="../../ui/transcript/delegate.py" line="265" />
        <source>(counts in {day})</source>
        <translation>（{day} の分）</translation>
    </message>
    <message>
        <location filename="../../ui/transcript/delegate.py" line="267" />
        <source>(incomplete)</source>
        <translation>（途中で途切れました）</translation>
    </message>
    <message>
        <location filename="../../ui/transcript/delegate.py" line="271" />
        <source>(forgotten: Claude no longer sees this)</source>
        <translation>（忘れた内容: Claude にはもう見えません）</translation>
    </message>
    <message>
        <location filename="../../ui/transcript/delegate.py" line="328" />
        <source>Picture</source>
        <translation>画像</translation>
    </message>
    <message>
        <location filename="../../ui/transcript/delegate.py" line="332" />
        <source>1 page</source>
        <translation>1 ページ</translation>
    </message>
    <message>
        <location filename="../../ui/transcript/delegate.py" line="332" />
        <source>{n} pages</source>
        <translation>{n} ページ</translation>
    </message>
    <message>
        <location filename="../../ui/transcript/delegate.py" line="335" />
        <source>Text</source>
        <translation>テキスト</translation>
    </message>
</context>
<context>
    <name>MixingDialog</name>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="80" />
        <source>Check topic mixing</source>
        <extracomment>Makes the estimate: a dict with model, requests, dollars, most_dollars, grader_model, grader_requests, grader_dollars (``CostEstimate.as_dict``). Runs the check: (live, grader, progress(done, total), cancel) -&gt; the report.</extracomment>
        <translation>話題の取り違えチェック</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="91" />
        <source>Before you turn the sunset model on: MONET replays built-in mixed days (Japanese and English, four tabs whose talk shares words, such as a work deadline and a personal one) as one stream (sunset model) and as one thread per tab (thread model), asks questions whose answer depends on the tab, and counts the answers that bring in another tab's facts. Nothing of it enters your conversation.</source>
        <translation>日没モデルを使う前の確認です。MONET は内蔵の「混ざった一日」（日本語と英語。4つのタブで同じ言葉が別の意味で出てきます。たとえば仕事の締め切りと私用の締め切り）を、一つの流れ（日没モデル）とタブごとのスレッド（スレッドモデル）の両方で再生し、答えがタブによって変わる質問をして、別のタブの事実を持ち込んだ答えを数えます。あなたの会話には何も入りません。</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="98" />
        <source>Claude ({model})</source>
        <translation>Claude（{model}）</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="100" />
        <source>The built-in stand-in (free)</source>
        <translation>内蔵の代役（無料）</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="105" />
        <source>A second opinion from a Claude grader</source>
        <translation>Claude の採点者によるセカンドオピニオン</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="108" />
        <source>No API key is set, so only the stand-in can answer. Add a key in Settings to ask Claude.</source>
        <translation>API キーが設定されていないため、答えられるのは代役だけです。Claude に聞くには設定でキーを追加してください。</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="115" />
        <source>Run the check</source>
        <translation>チェックを実行</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="144" />
        <source>Who answers:</source>
        <translation>答える相手:</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="162" />
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="175" />
        <source>No check has been run yet.</source>
        <translation>まだチェックしていません。</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="192" />
        <source>Free: nothing is sent to Anthropic. The stand-in answers from the answer key, so this checks the path, not Claude.</source>
        <translation>無料です。Anthropic には何も送りません。代役が正解表から答えるので、確かめるのは処理の経路で、Claude ではありません。</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="195" />
        <source>Estimating the cost…</source>
        <translation>費用を見積もり中…</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="196" />
        <source>The cost could not be estimated.</source>
        <translation>費用を見積もれませんでした。</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="200" />
        <source>About ${dollars} for {n} requests to {model} (at most about ${most}). What it spends is recorded in the usage ledger as check-mixing.</source>
        <translation>{model} へのリクエスト {n} 件で約 ${dollars}（多くても約 ${most}）。使った分は利用記録に check-mixing として残ります。</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="206" />
        <source>The grader adds about ${dollars} for {n} requests to {model}.</source>
        <translation>採点者の分として {model} へのリクエスト {n} 件で約 ${dollars} かかります。</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="235" />
        <source>Running…</source>
        <translation>実行中…</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="243" />
        <source>Running… {done}/{total} questions</source>
        <translation>実行中… {total} 問中 {done} 問</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="248" />
        <source>Done.</source>
        <translation>完了しました。</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="273" />
        <source>right</source>
        <translation>正しい</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="274" />
        <source>mixed up</source>
        <translation>取り違え</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="275" />
        <source>other</source>
        <translation>その他</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="276" />
        <source>unclear</source>
        <translation>不明</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="283" />
        <source>One stream mixed topics up more often than separate threads: read the mixed-up questions before turning the sunset model on.</source>
        <translation>一つの流れのほうが、別々のスレッドより多く話題を取り違えました。日没モデルを使う前に、取り違えた質問を確かめてください。</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="286" />
        <source>Most answers gave neither tab's fact, so this run cannot tell.</source>
        <translation>ほとんどの答えがどちらのタブの事実も含んでいないため、この実行からは判断できません。</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="287" />
        <source>No sign that one stream mixes topics up.</source>
        <translation>一つの流れで話題を取り違える兆候はありません。</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="289" />
        <source>Nothing was mixed up, but one stream got fewer answers right.</source>
        <translation>取り違えはありませんでしたが、一つの流れのほうが正しい答えが少なくなりました。</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="291" />
        <source>One stream mixed topics up no more often than separate threads, but both mixed some up: read those questions.</source>
        <translation>一つの流れでの取り違えは別々のスレッドより多くはありませんが、どちらにも取り違えがあります。その質問を確かめてください。</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="299" />
        <source>Sunset model (one stream): {sr}/{sn} right, {sm} mixed up. Thread model (a thread per tab): {tr}/{tn} right, {tm} mixed up.</source>
        <translation>日没モデル（一つの流れ）: {sn} 問中 {sr} 問正しく、取り違え {sm} 問。スレッドモデル（タブごとのスレッド）: {tn} 問中 {tr} 問正しく、取り違え {tm} 問。</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="304" />
        <source>Stand-in answers: this checks the path, not Claude.</source>
        <translation>代役の答えです。確かめたのは処理の経路で、Claude ではありません。</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="306" />
        <source>Answers from {model}.</source>
        <translation>{model} の答えです。</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="312" />
        <source>Last check: {when}</source>
        <translation>前回のチェック: {when}</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="316" />
        <source>Question</source>
        <translation>質問</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="316" />
        <source>Tab</source>
        <translation>タブ</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="316" />
        <location filename="../../ui/mixing_dialog.py" line="346" />
        <source>Sunset model</source>
        <translation>日没モデル</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="317" />
        <location filename="../../ui/mixing_dialog.py" line="346" />
        <source>Thread model</source>
        <translation>スレッドモデル</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="319" />
        <source>Grader: sunset</source>
        <translation>採点者: 日没</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="319" />
        <source>Grader: thread</source>
        <translation>採点者: スレッド</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="350" />
        <source>{name}: {right} right, {mixed} mixed up, {other} other; {tokens} prompt tokens, ${dollars}</source>
        <translation>{name}: 正しい {right}、取り違え {mixed}、その他 {other}。プロンプト {tokens} トークン、${dollars}</translation>
    </message>
    <message>
        <location filename="../../ui/mixing_dialog.py" line="358" />
        <source>Grader ({model}), a second opinion on the {name}: {right} right, {mixed} mixed up, {other} other, {unclear} unclear</source>
        <translation>採点者（{model}）による{name}のセカンドオピニオン: 正しい {right}、取り違え {mixed}、その他 {other}、不明 {unclear}</translation>
    </message>
</context>
<context>
    <name>Panes</name>
    <message>
        <location filename="../../monet_app/window/panes.py" line="120" />
        <source>Thread {n}</source>
        <translation>スレッド {n}</translation>
    </message>
</context>
<context>
    <name>PictureViewer</name>
    <message>
        <location filename="../../ui/picture_viewer.py" line="44" />
        <location filename="../../ui/picture_viewer.py" line="83" />
        <source>Loading…</source>
        <translation>読み込み中…</translation>
    </message>
    <message>
        <location filename="../../ui/picture_viewer.py" line="54" />
        <source>Open in another app</source>
        <translation>別のアプリで開く</translation>
    </message>
    <message>
        <location filename="../../ui/picture_viewer.py" line="103" />
        <source>This picture cannot be read.</source>
        <translation>この画像は読み込めません。</translation>
    </message>
</context>
<context>
    <name>PromoteDialog</name>
    <message>
        <location filename="../../ui/promote_dialog.py" line="25" />
        <source>Promote to lasting memory</source>
        <translation>永続的な記憶に昇格</translation>
    </message>
    <message>
        <location filename="../../ui/promote_dialog.py" line="28" />
        <source>Claude reads promoted statements in every request, from the next message on.</source>
        <translation>昇格した内容は、次のメッセージから毎回 Claude に渡されます。</translation>
    </message>
    <message>
        <location filename="../../ui/promote_dialog.py" line="40" />
        <source>Category</source>
        <translation>カテゴリ</translation>
    </message>
    <message>
        <location filename="../../ui/promote_dialog.py" line="41" />
        <source>Statement</source>
        <translation>内容</translation>
    </message>
    <message>
        <location filename="../../ui/promote_dialog.py" line="46" />
        <source>Promote</source>
        <translation>昇格する</translation>
    </message>
</context>
<context>
    <name>RecallPane</name>
    <message>
        <location filename="../../ui/recall_pane.py" line="26" />
        <source>Search all days (Ctrl+F)</source>
        <translation>すべての日を検索（Ctrl+F）</translation>
    </message>
</context>
<context>
    <name>SearchPanel</name>
    <message>
        <location filename="../../ui/panels.py" line="275" />
        <source>No message has these words</source>
        <translation>この言葉を含むメッセージはありません</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="276" />
        <source>No message matches.</source>
        <translation>一致するメッセージはありません。</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="278" />
        <source>The best {n} matches</source>
        <translation>上位 {n} 件</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="280" />
        <source>1 match</source>
        <translation>1 件</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="280" />
        <source>{n} matches</source>
        <translation>{n} 件</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="282" />
        <source>{n} related by meaning</source>
        <translation>意味が近いもの {n} 件</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="300" />
        <source>You</source>
        <translation>あなた</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="301" />
        <source>related</source>
        <translation>意味が近い</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="302" />
        <source>hidden from Claude</source>
        <translation>Claude には見せない</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="312" />
        <source>Show {n} more…</source>
        <translation>残り {n} 件を表示…</translation>
    </message>
</context>
<context>
    <name>SendFlow</name>
    <message>
        <location filename="../../monet_app/window/sending.py" line="191" />
        <source>Please continue from where you stopped.</source>
        <translation>途切れたところから続けてください。</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../ui/settings_dialog.py" line="64" />
        <source>MONET settings</source>
        <extracomment>"Check topic mixing…" was pressed: the controller opens the check (ui/mixing_dialog.py).</extracomment>
        <translation>MONET の設定</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="71" />
        <source>in use from ANTHROPIC_API_KEY</source>
        <translation>ANTHROPIC_API_KEY を使用中</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="72" />
        <source>stored in the OS keyring</source>
        <translation>OS のキーチェーンに保存済み</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="73" />
        <source>kept for this session only</source>
        <translation>このセッションの間だけ保持</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="74" />
        <source>not set</source>
        <translation>未設定</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="76" />
        <source>Anthropic API key ({where})</source>
        <translation>Anthropic API キー（{where}）</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="78" />
        <source>No system keyring here: the key will be kept for this session only, until MONET quits.</source>
        <translation>このシステムにはキーリングがありません。キーはこのセッションの間だけ、MONET を終了するまで保持されます。</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="99" />
        <source>none</source>
        <translation>なし</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="102" />
        <source>tab ids, e.g. social</source>
        <translation>タブの id（例: social）</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="103" />
        <source>One conversation per day (sunset model)</source>
        <translation>一日ひとつの会話（日没モデル）</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="106" />
        <source>Check topic mixing…</source>
        <translation>話題の取り違えをチェック…</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="110" />
        <source>Measure whether Claude keeps topics apart when every tab shares one stream, before turning the sunset model on</source>
        <translation>日没モデルを使う前に、すべてのタブが一つの流れになっても Claude が話題を取り違えないかを測ります</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="120" />
        <source>System</source>
        <translation>システムに合わせる</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="120" />
        <source>Light</source>
        <translation>ライト</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="120" />
        <source>Dark</source>
        <translation>ダーク</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="127" />
        <source>API key</source>
        <translation>API キー</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="131" />
        <source>The key in use comes from the ANTHROPIC_API_KEY variable, which goes before a key typed here.</source>
        <translation>使用中のキーは環境変数 ANTHROPIC_API_KEY のものです。ここに入力したキーより優先されます。</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="134" />
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="135" />
        <source>Tabs (id=label, …)</source>
        <translation>タブ（id=表示名, …）</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="136" />
        <source>Token ceiling</source>
        <translation>トークン上限</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="137" />
        <source>Day starts at</source>
        <translation>一日の始まり</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="138" />
        <source>Librarian every (minutes)</source>
        <translation>ライブラリアンの間隔（分）</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="139" />
        <source>Daily backups kept</source>
        <translation>毎日のバックアップを残す数</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="140" />
        <source>Incognito tabs (no memories)</source>
        <translation>シークレットのタブ（記憶に残さない）</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="142" />
        <source>Appearance</source>
        <translation>外観</translation>
    </message>
</context>
<context>
    <name>StatusLine</name>
    <message>
        <location filename="../../ui/status_line.py" line="52" />
        <source>Librarian: the service on {host}, last pass {when}</source>
        <extracomment>How long a passing notice ("Copied") stays in the status bar.</extracomment>
        <translation>司書: {host} のサービス（前回 {when}）</translation>
    </message>
    <message>
        <location filename="../../ui/status_line.py" line="54" />
        <source>Librarian: the service on {host}, no pass yet</source>
        <translation>司書: {host} のサービス（まだ実行前）</translation>
    </message>
    <message>
        <location filename="../../ui/status_line.py" line="57" />
        <source>{n} waiting for it</source>
        <translation>{n} 件待ち</translation>
    </message>
    <message>
        <location filename="../../ui/status_line.py" line="59" />
        <source>Summarizing {n}</source>
        <translation>要約作成中 {n}件</translation>
    </message>
    <message>
        <location filename="../../ui/status_line.py" line="60" />
        <source>Librarian: nothing pending</source>
        <translation>ライブラリアン: 待ちなし</translation>
    </message>
    <message>
        <location filename="../../ui/status_line.py" line="62" />
        <source>Indexing by meaning: {n:,} to go</source>
        <translation>意味の索引を作成中: 残り {n:,} 件</translation>
    </message>
    <message>
        <location filename="../../ui/status_line.py" line="65" />
        <source>Memories: offline rules (the model's proposals failed)</source>
        <translation>記憶: オフラインの規則で提案中（モデルの提案が失敗）</translation>
    </message>
    <message>
        <location filename="../../ui/status_line.py" line="69" />
        <source>Last reply: in {inp:,} · cache read {read:,} · cache write {write:,} · out {out:,} · ${usd:.4f}</source>
        <translation>直近の返答: 入力 {inp:,} · キャッシュ読込 {read:,} · キャッシュ書込 {write:,} · 出力 {out:,} · ${usd:.4f}</translation>
    </message>
    <message>
        <location filename="../../ui/status_line.py" line="76" />
        <source>Today ${usd:.4f}</source>
        <translation>今日 ${usd:.4f}</translation>
    </message>
    <message>
        <location filename="../../ui/status_line.py" line="81" />
        <source>This history is on a server and can be open on your other devices at the same time: their messages appear here within seconds. On each device, one window per data folder.</source>
        <translation>この履歴はサーバーにあり、ほかの端末でも同時に開けます。そちらのメッセージも数秒でここに表示されます。各端末では、データフォルダーごとにウィンドウは1つです。</translation>
    </message>
    <message>
        <location filename="../../ui/status_line.py" line="88" />
        <source>DEMO: a sample history in a throwaway folder; a built-in stand-in answers, not Claude</source>
        <translation>デモ: 使い捨てフォルダーのサンプル履歴です。答えるのは Claude ではなく内蔵の代役です</translation>
    </message>
</context>
<context>
    <name>StreamPresenter</name>
    <message>
        <location filename="../../monet_app/window/streaming.py" line="73" />
        <source>*Waiting for Claude… When the API is busy, MONET tries again by itself.*</source>
        <extracomment>After this long with no text, the growing row says it is waiting (the SDK may be retrying a busy API, ~4 s for its two retries): never a silent "…". The work of one reply: given ``on_text`` and a cancel flag, returns the result.</extracomment>
        <translation>*Claude の返事を待っています… API が混んでいるときは MONET が自動でやり直します。*</translation>
    </message>
</context>
<context>
    <name>TimelinePanel</name>
    <message>
        <location filename="../../ui/panels.py" line="146" />
        <source>What Claude remembers (Timeline Index)</source>
        <extracomment>Search results laid out at once; the rest follow a page at a time ("more").</extracomment>
        <translation>Claude が覚えていること（Timeline Index）</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="150" />
        <source>Click a line, or press Enter, to open its day.</source>
        <translation>行をクリックするか Enter で、その日を開きます。</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="171" />
        <source>Today</source>
        <translation>今日</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="171" />
        <source>Yesterday</source>
        <translation>昨日</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="172" />
        <source>Mon</source>
        <translation>月</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="172" />
        <source>Tue</source>
        <translation>火</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="172" />
        <source>Wed</source>
        <translation>水</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="172" />
        <source>Thu</source>
        <translation>木</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="172" />
        <source>Fri</source>
        <translation>金</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="173" />
        <source>Sat</source>
        <translation>土</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="173" />
        <source>Sun</source>
        <translation>日</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="174" />
        <source>being summarized…</source>
        <translation>要約作成中…</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="204" />
        <source>Nothing yet. Earlier days are summarized here, one line per stretch of talk.</source>
        <translation>まだありません。過去の会話がここに、ひと続きの話ごとに1行で要約されます。</translation>
    </message>
</context>
<context>
    <name>TranscriptPane</name>
    <message>
        <location filename="../../ui/transcript_pane.py" line="45" />
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <location filename="../../ui/transcript_pane.py" line="45" />
        <source>Edit</source>
        <translation>編集</translation>
    </message>
    <message>
        <location filename="../../ui/transcript_pane.py" line="46" />
        <source>Regenerate</source>
        <translation>作り直す</translation>
    </message>
    <message>
        <location filename="../../ui/transcript_pane.py" line="46" />
        <source>Continue</source>
        <translation>続ける</translation>
    </message>
    <message>
        <location filename="../../ui/transcript_pane.py" line="47" />
        <source>Files</source>
        <translation>ファイル</translation>
    </message>
    <message>
        <location filename="../../ui/transcript_pane.py" line="101" />
        <source>Copy message</source>
        <translation>メッセージをコピー</translation>
    </message>
    <message>
        <location filename="../../ui/transcript_pane.py" line="102" />
        <source>Edit and resend</source>
        <translation>編集して送り直す</translation>
    </message>
    <message>
        <location filename="../../ui/transcript_pane.py" line="103" />
        <source>Regenerate reply</source>
        <translation>返答を作り直す</translation>
    </message>
    <message>
        <location filename="../../ui/transcript_pane.py" line="104" />
        <source>Continue this reply</source>
        <translation>この返答の続きを書かせる</translation>
    </message>
    <message>
        <location filename="../../ui/transcript_pane.py" line="105" />
        <source>Show the earlier version</source>
        <translation>前の版を表示</translation>
    </message>
    <message>
        <location filename="../../ui/transcript_pane.py" line="106" />
        <source>Show the later version</source>
        <translation>次の版を表示</translation>
    </message>
    <message>
        <location filename="../../ui/transcript_pane.py" line="107" />
        <source>Delete this message…</source>
        <translation>このメッセージを削除…</translation>
    </message>
    <message>
        <location filename="../../ui/transcript_pane.py" line="114" />
        <source>Open {name}</source>
        <translation>{name} を開く</translation>
    </message>
    <message>
        <location filename="../../ui/transcript_pane.py" line="159" />
        <source>Message copied</source>
        <translation>メッセージをコピーしました</translation>
    </message>
    <message>
        <location filename="../../ui/transcript_pane.py" line="172" />
        <source>Delete this message and what was drawn from it?</source>
        <translation>このメッセージと、そこから作られた要約・記憶を削除しますか？</translation>
    </message>
    <message>
        <location filename="../../ui/transcript_pane.py" line="183" />
        <source>Nothing in this tab on this day.</source>
        <translation>この日のこのタブには会話がありません。</translation>
    </message>
    <message>
        <location filename="../../ui/transcript_pane.py" line="184" />
        <source>Nothing in this tab yet today. Write below; Claude sees every tab.</source>
        <translation>今日はまだこのタブの会話がありません。下に書いてください（Claude はどのタブの話も見ています）。</translation>
    </message>
</context>
<context>
    <name>TranscriptView</name>
    <message>
        <location filename="../../ui/transcript/view.py" line="146" />
        <source>↓ Latest</source>
        <extracomment>Pixels from the end that still count as "at the end" (a rounding, a last layout step). How long the scroll range must stay still before the view moves to the new end. Keep the newest row in view (set by ``follow_end``): the rows are laid out in batches after they are set, so the end moves down for a while; a reply grows. Scrolling away from the end stops it, as in any chat. A row shown on purpose (a search hit, a TI line), kept in view the same way until the person scrolls, clicks or types in the transcript.</extracomment>
        <translation>↓ 最新へ</translation>
    </message>
    <message>
        <location filename="../../ui/transcript/view.py" line="147" />
        <source>Jump to the latest message</source>
        <translation>最新のメッセージへ移動</translation>
    </message>
    <message>
        <location filename="../../ui/transcript/view.py" line="472" />
        <source>Copied</source>
        <translation>コピーしました</translation>
    </message>
    <message>
        <location filename="../../ui/transcript/view.py" line="481" />
        <location filename="../../ui/transcript/view.py" line="511" />
        <source>Message copied</source>
        <translation>メッセージをコピーしました</translation>
    </message>
</context>
<context>
    <name>Words</name>
    <message>
        <location filename="../../monet_app/window/words.py" line="57" />
        <source>The history's server cannot be reached: Claude's reply is kept on this device and goes into the history, with its cost, as soon as the server answers again.</source>
        <extracomment>A sentence of ``Words``' own that MONET's Japanese translates (``assets/i18n``; said by ``model_problem``, so ``pyside6-lupdate`` keeps it). The sentences said for a history's server away: a banner showing one goes when the server answers again (``SharedWatch``).</extracomment>
        <translation>履歴のサーバーに接続できません。Claude の返事はこの端末に保存してあり、サーバーが応答しだい、費用とともに履歴に書き込みます。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="70" />
        <source>Something went wrong ({kind}). Nothing you typed was lost; details are in monet.log.</source>
        <translation>問題が起きました（{kind}）。入力した内容は失われていません。詳細は monet.log にあります。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="76" />
        <source>{home} could be read by other accounts of this computer; MONET made it private ({count} folders and files, now readable by you alone).</source>
        <translation>{home} はこのコンピューターの他のアカウントから読める状態でした。MONET が非公開にしました（{count} 件のフォルダーとファイル。今はあなただけが読めます）。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="91" />
        <source>Wait until the restore is finished.</source>
        <translation>復元が終わるまでお待ちください。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="93" />
        <source>Wait until the deletion is finished.</source>
        <translation>削除が終わるまでお待ちください。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="95" />
        <source>Wait until the settings are applied.</source>
        <translation>設定の反映が終わるまでお待ちください。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="97" />
        <source>Wait for the reply or the deletion to finish first.</source>
        <translation>返答か削除が終わるまでお待ちください。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="99" />
        <source>Wait for the reply to finish before deleting.</source>
        <translation>返答が終わってから削除してください。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="102" />
        <source>Wait for the reply to finish (or press Stop) before changing settings.</source>
        <translation>返答が終わるまで（または停止を押してから）設定を変えてください。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="104" />
        <source>Wait for the reply to finish (or press Stop).</source>
        <translation>返信が終わるまでお待ちください（または停止を押してください）。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="109" />
        <source>The file</source>
        <translation>ファイル</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="112" />
        <source>{name} is not a kind Claude can read here (pictures: PNG, JPEG, GIF, WebP; documents: PDF or plain text); nothing was attached.</source>
        <translation>{name} は Claude が読める種類ではありません（画像: PNG・JPEG・GIF・WebP、文書: PDF・テキスト）。添付していません。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="115" />
        <source>{name} is too large to send (pictures up to 40 MB, PDFs up to 32 MB and 100 pages, text up to 1 MB); nothing was attached.</source>
        <translation>{name} は大きすぎて送れません（画像は 40 MB、PDF は 32 MB・100 ページ、テキストは 1 MB まで）。添付していません。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="117" />
        <source>{name} looks damaged and cannot be read; nothing was attached.</source>
        <translation>{name} は壊れているようで読めません。添付していません。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="119" />
        <source>{name} could not be opened here: {detail}</source>
        <translation>{name} を開けませんでした: {detail}</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="129" />
        <source>Your message is saved.</source>
        <translation>メッセージは保存済みです。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="131" />
        <source>No API key yet: paste one above or in Settings; Claude answers once a key is set.</source>
        <translation>API キーがまだありません。上の欄か設定に貼り付けてください。キーが入ると Claude が答えます。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="133" />
        <source>The API key was refused (401). Check it in Settings.</source>
        <translation>API キーが拒否されました（401）。設定で確認してください。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="134" />
        <source>Claude did not answer in time.</source>
        <translation>Claude が時間内に答えませんでした。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="135" />
        <source>No connection to Anthropic. MONET keeps working offline; retry when you are back online.</source>
        <translation>Anthropic に接続できません。MONET はオフラインでも使えます。つながったら再試行してください。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="137" />
        <source>Claude is overloaded right now (529); try again shortly.</source>
        <translation>Claude は今混み合っています（529）。少ししてから再試行してください。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="138" />
        <source>Anthropic had a server error; try again.</source>
        <translation>Anthropic 側でサーバーエラーが起きました。再試行してください。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="139" />
        <source>The reply broke off; what arrived is kept, marked incomplete.</source>
        <translation>返答が途中で切れました。届いた分は「途中」として残してあります。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="140" />
        <source>The reply stopped before Claude finished it; what arrived is kept, marked incomplete.</source>
        <translation>Claude が書き終える前に返答が止まりました。届いた分は「途中」として残してあります。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="145" />
        <source>Anthropic's rate limit was reached; try again in {s} s.</source>
        <translation>Anthropic の利用上限に達しました。{s} 秒後に再試行してください。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="147" />
        <source>Anthropic's rate limit was reached; try again in a minute.</source>
        <translation>Anthropic の利用上限に達しました。1分ほどしてから再試行してください。</translation>
    </message>
    <message>
        <location filename="../../monet_app/window/words.py" line="154" />
        <source>Something went wrong while asking Claude ({kind}). Your message is saved; details are in monet.log.</source>
        <translation>Claude への問い合わせ中に問題が起きました（{kind}）。メッセージは保存済みです。詳細は monet.log にあります。</translation>
    </message>
</context>
</TS>