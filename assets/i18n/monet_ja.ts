<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="ja_JP">
<context>
    <name>AppController</name>
    <message>
        <location filename="../../monet_app/app.py" line="134" />
        <source>Something went wrong while asking Claude ({kind}). Your message is saved; details are in monet.log.</source>
        <translation>Claude への問い合わせ中に問題が起きました（{kind}）。メッセージは保存済みです。詳細は monet.log にあります。</translation>
    </message>
    <message>
        <location filename="../../monet_app/app.py" line="155" />
        <source>Thread {n}</source>
        <translation>スレッド {n}</translation>
    </message>
    <message>
        <location filename="../../monet_app/app.py" line="264" />
        <source>Promoted under {heading}; Claude reads it from the next message.</source>
        <translation>「{heading}」に昇格しました。次のメッセージから Claude に渡されます。</translation>
    </message>
    <message>
        <location filename="../../monet_app/app.py" line="242" />
        <source>Wait for the reply to finish before deleting.</source>
        <translation>返答が終わってから削除してください。</translation>
    </message>
    <message>
        <location filename="../../monet_app/app.py" line="50" />
        <source>Something went wrong ({kind}). Nothing you typed was lost; details are in monet.log.</source>
        <translation>問題が起きました（{kind}）。入力した内容は失われていません。詳細は monet.log にあります。</translation>
    </message>
    <message>
        <location filename="../../monet_app/app.py" line="89" />
        <location filename="../../monet_app/app.py" line="279" />
        <source>Wait until the deletion is finished.</source>
        <translation>削除が終わるまでお待ちください。</translation>
    </message>
    <message>
        <location filename="../../monet_app/app.py" line="277" />
        <source>Wait for the reply to finish (or press Stop) before changing settings.</source>
        <translation>返答が終わるまで（または停止を押してから）設定を変えてください。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../ui/main_window.py" line="92" />
        <source>New thread</source>
        <translation>新しいスレッド</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="110" />
        <source>Retry</source>
        <translation>再試行</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="120" />
        <source>Send</source>
        <translation>送信</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="121" />
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="140" />
        <source>What Claude remembers (Timeline Index)</source>
        <translation>Claude が覚えていること（Timeline Index）</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="146" />
        <source>Search all days (Ctrl+F)</source>
        <translation>すべての日を検索（Ctrl+F）</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="178" />
        <source>Settings…</source>
        <translation>設定…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="186" />
        <source>&amp;MONET</source>
        <translation>&amp;MONET</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="188" />
        <source>What MONET remembers…</source>
        <translation>MONET が覚えていること…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="191" />
        <source>Incognito today (nothing becomes a memory)</source>
        <translation>今日はシークレット（記憶に残さない）</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="195" />
        <source>Promote to lasting memory…</source>
        <translation>永続的な記憶に昇格…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="198" />
        <source>Search…</source>
        <translation>検索…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="203" />
        <source>Quit</source>
        <translation>終了</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="256" />
        <source>Delete this day…</source>
        <translation>この日を削除…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="258" />
        <source>Delete everything said on {day}? Claude will not see it again.</source>
        <translation>{day} の会話をすべて削除しますか？ Claude がこれを見ることはもうありません。</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="271" />
        <source>Delete this message…</source>
        <translation>このメッセージを削除…</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="273" />
        <source>Delete this message and what was drawn from it?</source>
        <translation>このメッセージと、そこから作られた要約・記憶を削除しますか？</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="314" />
        <source>No message matches.</source>
        <translation>一致するメッセージはありません。</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="316" />
        <source>You</source>
        <translation>あなた</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="341" />
        <source>Days</source>
        <translation>日付</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="345" />
        <source>Today</source>
        <translation>今日</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="356" />
        <source>Threads</source>
        <translation>スレッド</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="371" />
        <source>{day} is a past day, shown read-only. Sending posts to today.</source>
        <translation>{day} は過去の日です（読み取り専用）。送信すると今日の会話に入ります。</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="374" />
        <source>Sending returns to today</source>
        <translation>送信すると今日に戻ります</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="377" />
        <source>Message (Enter sends, Shift+Enter adds a line)</source>
        <translation>メッセージ（Enter で送信、Shift+Enter で改行）</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="386" />
        <source>Nothing in this tab on this day.</source>
        <translation>この日のこのタブには会話がありません。</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="387" />
        <source>Nothing in this tab yet today. Write below; Claude sees every tab.</source>
        <translation>今日はまだこのタブの会話がありません。下に書いてください（Claude はどのタブの話も見ています）。</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="435" />
        <source>Summarizing {n}</source>
        <translation>要約作成中 {n}件</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="436" />
        <source>Librarian: nothing pending</source>
        <translation>ライブラリアン: 待ちなし</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="440" />
        <source>Last reply: in {inp:,} · cache read {read:,} · cache write {write:,} · out {out:,} · ${usd:.4f}</source>
        <translation>直近の返答: 入力 {inp:,} · キャッシュ読込 {read:,} · キャッシュ書込 {write:,} · 出力 {out:,} · ${usd:.4f}</translation>
    </message>
    <message>
        <location filename="../../ui/main_window.py" line="447" />
        <source>Today ${usd:.4f}</source>
        <translation>今日 ${usd:.4f}</translation>
    </message>
</context>
<context>
    <name>MemoryDialog</name>
    <message>
        <location filename="../../ui/memory_dialog.py" line="37" />
        <source>What MONET remembers</source>
        <translation>MONET が覚えていること</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="46" />
        <source>Correct…</source>
        <translation>訂正…</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="47" />
        <source>Forget</source>
        <translation>忘れる</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="49" />
        <source>Claude forgets it; the messages it came from stay in your history, hidden from Claude.</source>
        <translation>Claude はこれを忘れます。元のメッセージは履歴に残り、Claude からは見えなくなります。</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="51" />
        <source>Forget and delete its messages…</source>
        <translation>忘れて元のメッセージも削除…</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="57" />
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="63" />
        <source>Forgetting an item removes it from every later request, with the messages it came from: they stay in your history but Claude no longer sees them (or you delete them too). Correcting an item changes what Claude reads from the next message on.</source>
        <translation>忘れた項目は、その元になったメッセージとともにこれ以降どのリクエストにも入りません。メッセージは履歴に残りますが Claude からは見えなくなります（一緒に削除することもできます）。訂正すると次のメッセージから Claude が読む内容が変わります。</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="81" />
        <source>Preference</source>
        <translation>好み</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="82" />
        <source>Promise</source>
        <translation>約束</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="83" />
        <source>Done together</source>
        <translation>一緒にしたこと</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="84" />
        <source>You asked</source>
        <translation>覚えてと頼まれた</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="85" />
        <source>Fact</source>
        <translation>事実</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="86" />
        <source>About you</source>
        <translation>あなたについて</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="93" />
        <source> (contradiction: please check)</source>
        <translation>（矛盾あり・確認してください）</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="98" />
        <source>Nothing is remembered yet.</source>
        <translation>まだ何も覚えていません。</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="107" />
        <source>From: {source}</source>
        <translation>出典: {source}</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="114" />
        <source>Correct</source>
        <translation>訂正</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="114" />
        <source>What is true:</source>
        <translation>正しい内容:</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="130" />
        <source>Delete messages</source>
        <translation>メッセージの削除</translation>
    </message>
    <message>
        <location filename="../../ui/memory_dialog.py" line="131" />
        <source>Forget this item and delete the messages it came from (and Claude's replies to them) from your history? This cannot be undone.</source>
        <translation>この項目を忘れ、元になったメッセージ（と Claude の返答）を履歴から削除しますか？ 元に戻せません。</translation>
    </message>
</context>
<context>
    <name>MessageDelegate</name>
    <message>
        <location filename="../../ui/transcript.py" line="157" />
        <source>You</source>
        <translation>あなた</translation>
    </message>
    <message>
        <location filename="../../ui/transcript.py" line="157" />
        <source>Tool</source>
        <translation>ツール</translation>
    </message>
    <message>
        <location filename="../../ui/transcript.py" line="161" />
        <source>(incomplete)</source>
        <translation>（途中で途切れました）</translation>
    </message>
    <message>
        <location filename="../../ui/transcript.py" line="165" />
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
    <name>SettingsDialog</name>
    <message>
        <location filename="../../ui/settings_dialog.py" line="45" />
        <source>MONET settings</source>
        <translation>MONET の設定</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="52" />
        <source>in use from ANTHROPIC_API_KEY</source>
        <translation>ANTHROPIC_API_KEY を使用中</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="53" />
        <source>stored in the OS keyring</source>
        <translation>OS のキーチェーンに保存済み</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="54" />
        <source>not set</source>
        <translation>未設定</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="56" />
        <source>Anthropic API key ({where})</source>
        <translation>Anthropic API キー（{where}）</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="72" />
        <source>tab ids, e.g. social</source>
        <translation>タブの id（例: social）</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="73" />
        <source>One conversation per day (sunset model)</source>
        <translation>一日ひとつの会話（日没モデル）</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="79" />
        <source>API key</source>
        <translation>API キー</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="80" />
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="81" />
        <source>Tabs (id=label, …)</source>
        <translation>タブ（id=表示名, …）</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="82" />
        <source>Token ceiling</source>
        <translation>トークン上限</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="83" />
        <source>Day starts at</source>
        <translation>一日の始まり</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="84" />
        <source>Librarian every (minutes)</source>
        <translation>ライブラリアンの間隔（分）</translation>
    </message>
    <message>
        <location filename="../../ui/settings_dialog.py" line="85" />
        <source>Incognito tabs (no memories)</source>
        <translation>シークレットのタブ（記憶に残さない）</translation>
    </message>
</context>
</TS>