<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="ja_JP">
<context>
    <name>AppController</name>
    <message>
        <location filename="../../monet_app/app.py" line="191" />
        <source>Something went wrong while asking Claude ({kind}). Your message is saved; details are in monet.log.</source>
        <translation>Claude への問い合わせ中に問題が起きました（{kind}）。メッセージは保存済みです。詳細は monet.log にあります。</translation>
    </message>
    <message>
        <location filename="../../monet_app/app.py" line="215" />
        <source>Thread {n}</source>
        <translation>スレッド {n}</translation>
    </message>
    <message>
        <location filename="../../monet_app/app.py" line="422" />
        <source>Promoted under {heading}; Claude reads it from the next message.</source>
        <translation>「{heading}」に昇格しました。次のメッセージから Claude に渡されます。</translation>
    </message>
    <message>
        <location filename="../../monet_app/app.py" line="314" />
        <source>Wait for the reply to finish before deleting.</source>
        <translation>返答が終わってから削除してください。</translation>
    </message>
    <message>
        <location filename="../../monet_app/app.py" line="66" />
        <source>Something went wrong ({kind}). Nothing you typed was lost; details are in monet.log.</source>
        <translation>問題が起きました（{kind}）。入力した内容は失われていません。詳細は monet.log にあります。</translation>
    </message>
    <message>
        <location filename="../../monet_app/app.py" line="117" />
        <location filename="../../monet_app/app.py" line="438" />
        <source>Wait until the deletion is finished.</source>
        <translation>削除が終わるまでお待ちください。</translation>
    </message>
    <message>
        <location filename="../../monet_app/app.py" line="348" />
        <source>Please continue from where you stopped.</source>
        <translation>途切れたところから続けてください。</translation>
    </message>
    <message>
        <location filename="../../monet_app/app.py" line="388" />
        <source>Key saved in the system keyring.</source>
        <translation>キーをシステムのキーリングに保存しました。</translation>
    </message>
    <message>
        <location filename="../../monet_app/app.py" line="389" />
        <source>Key kept for this session only; it is forgotten when MONET quits.</source>
        <translation>キーはこのセッションの間だけ保持します。MONET を終了すると消えます。</translation>
    </message>
    <message>
        <location filename="../../monet_app/app.py" line="408" />
        <source>Opening the demo in its own window…</source>
        <translation>デモを別のウィンドウで開いています…</translation>
    </message>
    <message>
        <location filename="../../monet_app/app.py" line="436" />
        <source>Wait for the reply to finish (or press Stop) before changing settings.</source>
        <translation>返答が終わるまで（または停止を押してから）設定を変えてください。</translation>
    </message>
</context>
<context>
    <name>KeyBox</name>
    <message>
        <location filename="../../ui/main_window.py" line="111" />
        <source>Paste your Anthropic API key (sk-ant-…)</source>
        <extracomment>Below these window widths the side panes fold away, so the conversation stays the widest pane; they come back when the window widens again (or by View menu / keys). Visible keyboard focus on every list and field, in the palette's highlight colour. The border and padding add up to the same width focused or not, so focusing the transcript never changes its width (which would lay every message out again).</extracomment>
        <translation>Anthropic の API キーを貼り付け（sk-ant-…）</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="112" />
        <source>Use this key</source>
        <translation>このキーを使う</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="113" />
        <source>Try the demo</source>
        <translation>デモを試す</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="115" />
        <source>A sample history in its own window and throwaway folder; your data is not touched and nothing is sent anywhere.</source>
        <translation>サンプルの履歴を別のウィンドウと使い捨てのフォルダーで開きます。あなたのデータには触れず、どこにも何も送りません。</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="139" />
        <source>Welcome to MONET</source>
        <translation>MONET へようこそ</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="139" />
        <source>No API key yet</source>
        <translation>API キーがまだありません</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="142" />
        <source>MONET keeps one conversation per day with Claude. To get answers it needs an Anthropic API key (console.anthropic.com → API keys). Until then you can write, browse and search: everything you type is kept.</source>
        <translation>MONET は Claude との会話を1日1本にまとめます。返答を受け取るには Anthropic の API キーが必要です（console.anthropic.com → API keys）。それまでも書く・読む・検索することはでき、入力した内容はすべて保存されます。</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="146" />
        <source>The key goes to the system keyring; it is never written to a file.</source>
        <translation>キーはシステムのキーリングに保存され、ファイルには書かれません。</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="148" />
        <source>No system keyring here: the key will be kept for this session only, until MONET quits. To keep it, set ANTHROPIC_API_KEY.</source>
        <translation>このシステムにはキーリングがありません。キーはこのセッションの間だけ、MONET を終了するまで保持されます。残すには ANTHROPIC_API_KEY を設定してください。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../ui/main_window.py" line="199" />
        <source>New thread</source>
        <translation>新しいスレッド</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="221" />
        <source>Retry</source>
        <translation>再試行</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="230" />
        <source>Editing your last message: Enter sends it in place of the old one and its reply; Esc cancels.</source>
        <translation>最後のメッセージを編集中: Enter で元のメッセージと返答に置き換えて送信、Esc で取り消し。</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="236" />
        <source>Send</source>
        <translation>送信</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="237" />
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="238" />
        <source>Stop the reply (Esc)</source>
        <translation>返答を止める（Esc）</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="261" />
        <source>Search all days (Ctrl+F)</source>
        <translation>すべての日を検索（Ctrl+F）</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="334" />
        <source>Settings…</source>
        <translation>設定…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="342" />
        <source>&amp;MONET</source>
        <translation>&amp;MONET</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="344" />
        <source>What MONET remembers…</source>
        <translation>MONET が覚えていること…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="347" />
        <source>Incognito today (nothing becomes a memory)</source>
        <translation>今日はシークレット（記憶に残さない）</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="351" />
        <source>Promote to lasting memory…</source>
        <translation>永続的な記憶に昇格…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="354" />
        <source>Search…</source>
        <translation>検索…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="359" />
        <source>Open the demo…</source>
        <translation>デモを開く…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="363" />
        <source>Quit</source>
        <translation>終了</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="369" />
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="370" />
        <source>Days pane</source>
        <translation>日付の欄</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="375" />
        <source>Timeline and search pane</source>
        <translation>タイムラインと検索の欄</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="380" />
        <source>Next tab</source>
        <translation>次のタブ</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="383" />
        <source>Previous tab</source>
        <translation>前のタブ</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="386" />
        <source>Go to the message field</source>
        <translation>入力欄へ移動</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="433" />
        <source>Delete this day…</source>
        <translation>この日を削除…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="435" />
        <source>Delete everything said on {day}? Claude will not see it again.</source>
        <translation>{day} の会話をすべて削除しますか？ Claude がこれを見ることはもうありません。</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="461" />
        <source>Copy message</source>
        <translation>メッセージをコピー</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="462" />
        <source>Edit and resend</source>
        <translation>編集して送り直す</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="463" />
        <source>Regenerate reply</source>
        <translation>返答を作り直す</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="464" />
        <source>Continue this reply</source>
        <translation>この返答の続きを書かせる</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="465" />
        <source>Delete this message…</source>
        <translation>このメッセージを削除…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="476" />
        <source>Message copied</source>
        <translation>メッセージをコピーしました</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="484" />
        <source>Delete this message and what was drawn from it?</source>
        <translation>このメッセージと、そこから作られた要約・記憶を削除しますか？</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="583" />
        <source>All tabs</source>
        <translation>すべて</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="611" />
        <source>Days</source>
        <translation>日付</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="615" />
        <source>Today</source>
        <translation>今日</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="626" />
        <source>Threads</source>
        <translation>スレッド</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="641" />
        <source>{day} is a past day, shown read-only. Sending posts to today.</source>
        <translation>{day} は過去の日です（読み取り専用）。送信すると今日の会話に入ります。</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="644" />
        <source>Sending returns to today</source>
        <translation>送信すると今日に戻ります</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="647" />
        <source>Message (Enter sends, Shift+Enter adds a line)</source>
        <translation>メッセージ（Enter で送信、Shift+Enter で改行）</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="654" />
        <source>Message to {tab} (Enter sends, Shift+Enter adds a line)</source>
        <translation>{tab} へのメッセージ（Enter で送信、Shift+Enter で改行）</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="663" />
        <source>Nothing in this tab on this day.</source>
        <translation>この日のこのタブには会話がありません。</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="664" />
        <source>Nothing in this tab yet today. Write below; Claude sees every tab.</source>
        <translation>今日はまだこのタブの会話がありません。下に書いてください（Claude はどのタブの話も見ています）。</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="710" />
        <source>Summarizing {n}</source>
        <translation>要約作成中 {n}件</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="711" />
        <source>Librarian: nothing pending</source>
        <translation>ライブラリアン: 待ちなし</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="715" />
        <source>Last reply: in {inp:,} · cache read {read:,} · cache write {write:,} · out {out:,} · ${usd:.4f}</source>
        <translation>直近の返答: 入力 {inp:,} · キャッシュ読込 {read:,} · キャッシュ書込 {write:,} · 出力 {out:,} · ${usd:.4f}</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="722" />
        <source>Today ${usd:.4f}</source>
        <translation>今日 ${usd:.4f}</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="726" />
        <source>MONET — demo</source>
        <translation>MONET — デモ</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="727" />
        <source>DEMO: a sample history in a throwaway folder; a built-in stand-in answers, not Claude</source>
        <translation>デモ: 使い捨てフォルダーのサンプル履歴です。答えるのは Claude ではなく内蔵の代役です</translation>
    </message>
</context>
<context>
    <name>MemoryDialog</name>
    <message>
        <location filename="../../ui/memory_dialog.py" line="60" />
        <source>What MONET remembers</source>
        <extracomment>How long a forgotten item can be brought back before it is deleted.</extracomment>
        <translation>MONET が覚えていること</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="76" />
        <source>Undo</source>
        <translation>元に戻す</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="89" />
        <source>Correct…</source>
        <translation>訂正…</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="90" />
        <source>Forget</source>
        <translation>忘れる</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="92" />
        <source>Claude forgets it; the messages it came from stay in your history, hidden from Claude.</source>
        <translation>Claude はこれを忘れます。元のメッセージは履歴に残り、Claude からは見えなくなります。</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="94" />
        <source>Forget and delete its messages…</source>
        <translation>忘れて元のメッセージも削除…</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="100" />
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="106" />
        <source>Forgetting an item removes it from every later request, with the messages it came from: they stay in your history but Claude no longer sees them (or you delete them too). Correcting an item changes what Claude reads from the next message on.</source>
        <translation>忘れた項目は、その元になったメッセージとともにこれ以降どのリクエストにも入りません。メッセージは履歴に残りますが Claude からは見えなくなります（一緒に削除することもできます）。訂正すると次のメッセージから Claude が読む内容が変わります。</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="125" />
        <source>Preference</source>
        <translation>好み</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="126" />
        <source>Promise</source>
        <translation>約束</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="127" />
        <source>Done together</source>
        <translation>一緒にしたこと</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="128" />
        <source>You asked</source>
        <translation>覚えてと頼まれた</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="129" />
        <source>Fact</source>
        <translation>事実</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="130" />
        <source>About you</source>
        <translation>あなたについて</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="141" />
        <source> (contradiction: please check)</source>
        <translation>（矛盾あり・確認してください）</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="146" />
        <source>Nothing is remembered yet.</source>
        <translation>まだ何も覚えていません。</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="165" />
        <source>From: {source}</source>
        <translation>出典: {source}</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="172" />
        <source>Correct</source>
        <translation>訂正</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="172" />
        <source>What is true:</source>
        <translation>正しい内容:</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="188" />
        <source>Delete messages</source>
        <translation>メッセージの削除</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="189" />
        <source>Forget this item and delete the messages it came from (and Claude's replies to them) from your history? This cannot be undone.</source>
        <translation>この項目を忘れ、元になったメッセージ（と Claude の返答）を履歴から削除しますか？ 元に戻せません。</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="212" />
        <source>Forgotten, with its messages: {fact}</source>
        <translation>忘れました（元のメッセージも削除）: {fact}</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="213" />
        <source>Forgotten: {fact}</source>
        <translation>忘れました: {fact}</translation>
    </message>
</context>
<context>
    <name>MessageDelegate</name>
    <message>
        <location filename="../../ui/transcript.py" line="583" />
        <location filename="../../ui/transcript.py" line="813" />
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <location filename="../../ui/transcript.py" line="584" />
        <location filename="../../ui/transcript.py" line="813" />
        <source>Copied</source>
        <translation>コピーしました</translation>
    </message>
    <message>
        <location filename="../../ui/transcript.py" line="686" />
        <source>You</source>
        <translation>あなた</translation>
    </message>
    <message>
        <location filename="../../ui/transcript.py" line="686" />
        <source>Tool</source>
        <translation>ツール</translation>
    </message>
    <message>
        <location filename="../../ui/transcript.py" line="689" />
        <source>(incomplete)</source>
        <translation>（途中で途切れました）</translation>
    </message>
    <message>
        <location filename="../../ui/transcript.py" line="693" />
        <source>(forgotten: Claude no longer sees this)</source>
        <translation>（忘れた内容: Claude にはもう見えません）</translation>
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
    <name>SearchPanel</name>
    <message>
        <location filename="../../ui/panels.py" line="245" />
        <source>No message matches.</source>
        <translation>一致するメッセージはありません。</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="247" />
        <source>The best {n} matches</source>
        <translation>上位 {n} 件</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="250" />
        <source>1 match</source>
        <translation>1 件</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="250" />
        <source>{n} matches</source>
        <translation>{n} 件</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="253" />
        <source>You</source>
        <translation>あなた</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../ui/settings_dialog.py" line="50" />
        <source>MONET settings</source>
        <translation>MONET の設定</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="57" />
        <source>in use from ANTHROPIC_API_KEY</source>
        <translation>ANTHROPIC_API_KEY を使用中</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="58" />
        <source>stored in the OS keyring</source>
        <translation>OS のキーチェーンに保存済み</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="59" />
        <source>kept for this session only</source>
        <translation>このセッションの間だけ保持</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="60" />
        <source>not set</source>
        <translation>未設定</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="62" />
        <source>Anthropic API key ({where})</source>
        <translation>Anthropic API キー（{where}）</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="64" />
        <source>No system keyring here: the key will be kept for this session only, until MONET quits.</source>
        <translation>このシステムにはキーリングがありません。キーはこのセッションの間だけ、MONET を終了するまで保持されます。</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="83" />
        <source>tab ids, e.g. social</source>
        <translation>タブの id（例: social）</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="84" />
        <source>One conversation per day (sunset model)</source>
        <translation>一日ひとつの会話（日没モデル）</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="90" />
        <source>System</source>
        <translation>システムに合わせる</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="90" />
        <source>Light</source>
        <translation>ライト</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="90" />
        <source>Dark</source>
        <translation>ダーク</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="97" />
        <source>API key</source>
        <translation>API キー</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="100" />
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="101" />
        <source>Tabs (id=label, …)</source>
        <translation>タブ（id=表示名, …）</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="102" />
        <source>Token ceiling</source>
        <translation>トークン上限</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="103" />
        <source>Day starts at</source>
        <translation>一日の始まり</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="104" />
        <source>Librarian every (minutes)</source>
        <translation>ライブラリアンの間隔（分）</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="105" />
        <source>Incognito tabs (no memories)</source>
        <translation>シークレットのタブ（記憶に残さない）</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="107" />
        <source>Appearance</source>
        <translation>外観</translation>
    </message>
</context>
<context>
    <name>TimelinePanel</name>
    <message>
        <location filename="../../ui/panels.py" line="135" />
        <source>What Claude remembers (Timeline Index)</source>
        <translation>Claude が覚えていること（Timeline Index）</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="139" />
        <source>Click a line, or press Enter, to open its day.</source>
        <translation>行をクリックするか Enter で、その日を開きます。</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="158" />
        <source>Today</source>
        <translation>今日</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="158" />
        <source>Yesterday</source>
        <translation>昨日</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="159" />
        <source>Mon</source>
        <translation>月</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="159" />
        <source>Tue</source>
        <translation>火</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="159" />
        <source>Wed</source>
        <translation>水</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="159" />
        <source>Thu</source>
        <translation>木</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="159" />
        <source>Fri</source>
        <translation>金</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="160" />
        <source>Sat</source>
        <translation>土</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="160" />
        <source>Sun</source>
        <translation>日</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="161" />
        <source>being summarized…</source>
        <translation>要約作成中…</translation>
    </message>
    <message>
        <location filename="../../ui/panels.py" line="187" />
        <source>Nothing yet. Earlier days are summarized here, one line per stretch of talk.</source>
        <translation>まだありません。過去の会話がここに、ひと続きの話ごとに1行で要約されます。</translation>
    </message>
</context>
<context>
    <name>TranscriptView</name>
    <message>
        <location filename="../../ui/transcript.py" line="1010" />
        <source>Copied</source>
        <translation>コピーしました</translation>
    </message>
    <message>
        <location filename="../../ui/transcript.py" line="1019" />
        <location filename="../../ui/transcript.py" line="1040" />
        <source>Message copied</source>
        <translation>メッセージをコピーしました</translation>
    </message>
</context>
</TS>