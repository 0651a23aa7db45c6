"""The Japanese UI text: fills ``monet_ja.ts`` beside this file from ``JA`` below.

From the repository's root, when UI strings change:

    pyside6-lupdate -no-obsolete ui/*.py ui/transcript/*.py monet_app/window/*.py -ts assets/i18n/monet_ja.ts
    python assets/i18n/translate_ja.py && pyside6-lrelease assets/i18n/monet_ja.ts -qm ui/i18n/monet_ja.qm

The first collects the ``self.tr()`` sources, the second fills in the translations and
compiles what the app loads, ``ui/i18n/monet_ja.qm`` (package data of ``ui``, so an
installed wheel and a bundle carry it; see ``ui/look.py``). A source without an entry
here is reported, left unfinished, and the script exits 1. This folder holds sources
only: neither the ``.ts`` nor this script is shipped.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

JA = {
    'Librarian: the service on {host}, last pass {when}':
        '司書: {host} のサービス（前回 {when}）',
    'Librarian: the service on {host}, no pass yet':
        '司書: {host} のサービス（まだ実行前）',
    '{n} waiting for it':
        '{n} 件待ち',
    "The history's server cannot be reached: Claude's reply is kept on this device and goes "
    "into the history, with its cost, as soon as the server answers again.":
        '履歴のサーバーに接続できません。Claude の返事はこの端末に保存してあり、サーバーが'
        '応答しだい、費用とともに履歴に書き込みます。',
    '{home} could be read by other accounts of this computer; MONET made it private '
    '({count} folders and files, now readable by you alone).':
        '{home} はこのコンピューターの他のアカウントから読める状態でした。MONET が非公開にしました'
        '（{count} 件のフォルダーとファイル。今はあなただけが読めます）。',
    'Cancel':
        'キャンセル',
    'Connecting to the shared history on {where}…':
        '共有の履歴 {where} に接続しています…',
    'MONET cannot open the shared history.':
        'MONET は共有の履歴を開けません。',
    'Try again':
        'もう一度試す',
    'No message has these words':
        'この言葉を含むメッセージはありません',
    '{n} related by meaning':
        '意味が近いもの {n} 件',
    'Indexing by meaning: {n:,} to go':
        '意味の索引を作成中: 残り {n:,} 件',
    "Memories: offline rules (the model's proposals failed)":
        '記憶: オフラインの規則で提案中（モデルの提案が失敗）',
    'related':
        '意味が近い',
    'hidden from Claude':
        'Claude には見せない',
    'Restoring once the librarian or the backup finishes…':
        'ライブラリアンかバックアップが終わりしだい復元します…',
    'Wait until the restore is finished.':
        '復元が終わるまでお待ちください。',
    'Wait until the settings are applied.':
        '設定の反映が終わるまでお待ちください。',
    'Wait for the reply to finish (or press Stop).':
        '返信が終わるまでお待ちください（または停止を押してください）。',
    'Show {n} more…':
        '残り {n} 件を表示…',
    'Check topic mixing':
        '話題の取り違えチェック',
    "Before you turn the sunset model on: MONET replays built-in mixed days (Japanese and English, four tabs whose talk shares words, such as a work deadline and a personal one) as one stream (sunset model) and as one thread per tab (thread model), asks questions whose answer depends on the tab, and counts the answers that bring in another tab's facts. Nothing of it enters your conversation.":
        '日没モデルを使う前の確認です。MONET は内蔵の「混ざった一日」（日本語と英語。4つのタブで同じ言葉が別の意味で出てきます。たとえば仕事の締め切りと私用の締め切り）を、一つの流れ（日没モデル）とタブごとのスレッド（スレッドモデル）の両方で再生し、答えがタブによって変わる質問をして、別のタブの事実を持ち込んだ答えを数えます。あなたの会話には何も入りません。',
    'Claude ({model})':
        'Claude（{model}）',
    'The built-in stand-in (free)':
        '内蔵の代役（無料）',
    'A second opinion from a Claude grader':
        'Claude の採点者によるセカンドオピニオン',
    'No API key is set, so only the stand-in can answer. Add a key in Settings to ask Claude.':
        'API キーが設定されていないため、答えられるのは代役だけです。Claude に聞くには設定でキーを追加してください。',
    'Run the check':
        'チェックを実行',
    'Who answers:':
        '答える相手:',
    'No check has been run yet.':
        'まだチェックしていません。',
    'Free: nothing is sent to Anthropic. The stand-in answers from the answer key, so this checks the path, not Claude.':
        '無料です。Anthropic には何も送りません。代役が正解表から答えるので、確かめるのは処理の経路で、Claude ではありません。',
    'Estimating the cost…':
        '費用を見積もり中…',
    'The cost could not be estimated.':
        '費用を見積もれませんでした。',
    'About ${dollars} for {n} requests to {model} (at most about ${most}). What it spends is recorded in the usage ledger as check-mixing.':
        '{model} へのリクエスト {n} 件で約 ${dollars}（多くても約 ${most}）。使った分は利用記録に check-mixing として残ります。',
    'The grader adds about ${dollars} for {n} requests to {model}.':
        '採点者の分として {model} へのリクエスト {n} 件で約 ${dollars} かかります。',
    'Running…':
        '実行中…',
    'Running… {done}/{total} questions':
        '実行中… {total} 問中 {done} 問',
    'Done.':
        '完了しました。',
    'right':
        '正しい',
    'mixed up':
        '取り違え',
    'other':
        'その他',
    'unclear':
        '不明',
    'One stream mixed topics up more often than separate threads: read the mixed-up questions before turning the sunset model on.':
        '一つの流れのほうが、別々のスレッドより多く話題を取り違えました。日没モデルを使う前に、取り違えた質問を確かめてください。',
    "Most answers gave neither tab's fact, so this run cannot tell.":
        'ほとんどの答えがどちらのタブの事実も含んでいないため、この実行からは判断できません。',
    'No sign that one stream mixes topics up.':
        '一つの流れで話題を取り違える兆候はありません。',
    'Nothing was mixed up, but one stream got fewer answers right.':
        '取り違えはありませんでしたが、一つの流れのほうが正しい答えが少なくなりました。',
    'One stream mixed topics up no more often than separate threads, but both mixed some up: read those questions.':
        '一つの流れでの取り違えは別々のスレッドより多くはありませんが、どちらにも取り違えがあります。その質問を確かめてください。',
    'Sunset model (one stream): {sr}/{sn} right, {sm} mixed up. Thread model (a thread per tab): {tr}/{tn} right, {tm} mixed up.':
        '日没モデル（一つの流れ）: {sn} 問中 {sr} 問正しく、取り違え {sm} 問。スレッドモデル（タブごとのスレッド）: {tn} 問中 {tr} 問正しく、取り違え {tm} 問。',
    'Stand-in answers: this checks the path, not Claude.':
        '代役の答えです。確かめたのは処理の経路で、Claude ではありません。',
    'Answers from {model}.':
        '{model} の答えです。',
    'Last check: {when}':
        '前回のチェック: {when}',
    'Question':
        '質問',
    'Tab':
        'タブ',
    'Sunset model':
        '日没モデル',
    'Thread model':
        'スレッドモデル',
    'Grader: sunset':
        '採点者: 日没',
    'Grader: thread':
        '採点者: スレッド',
    '{name}: {right} right, {mixed} mixed up, {other} other; {tokens} prompt tokens, ${dollars}':
        '{name}: 正しい {right}、取り違え {mixed}、その他 {other}。プロンプト {tokens} トークン、${dollars}',
    'Grader ({model}), a second opinion on the {name}: {right} right, {mixed} mixed up, {other} other, {unclear} unclear':
        '採点者（{model}）による{name}のセカンドオピニオン: 正しい {right}、取り違え {mixed}、その他 {other}、不明 {unclear}',
    'Check topic mixing…':
        '話題の取り違えをチェック…',
    'Measure whether Claude keeps topics apart when every tab shares one stream, before turning the sunset model on':
        '日没モデルを使う前に、すべてのタブが一つの流れになっても Claude が話題を取り違えないかを測ります',
    'About MONET':
        'MONET について',
    'About MONET…':
        'MONET について…',
    'One continuous conversation with Claude per day, with a Timeline Index that keeps the prompt cache hitting.':
        'Claude との会話を1日1本に。Timeline Index がプロンプトキャッシュを効かせ続けます。',
    'Open the data folder':
        'データフォルダーを開く',
    'Show the data folder in the file manager':
        'データフォルダーをファイルマネージャーで表示',
    'none (a new database)':
        'なし（新しいデータベース）',
    'Data folder:':
        'データフォルダー:',
    'Database schema:':
        'データベースのスキーマ:',
    'Running on:':
        '実行環境:',
    'Your message is saved.':
        'メッセージは保存済みです。',
    'No API key yet: paste one above or in Settings; Claude answers once a key is set.':
        'API キーがまだありません。上の欄か設定に貼り付けてください。キーが入ると Claude が答えます。',
    'The API key was refused (401). Check it in Settings.':
        'API キーが拒否されました（401）。設定で確認してください。',
    'Claude did not answer in time.':
        'Claude が時間内に答えませんでした。',
    'No connection to Anthropic. MONET keeps working offline; retry when you are back online.':
        'Anthropic に接続できません。MONET はオフラインでも使えます。つながったら再試行してください。',
    'Claude is overloaded right now (529); try again shortly.':
        'Claude は今混み合っています（529）。少ししてから再試行してください。',
    'Anthropic had a server error; try again.':
        'Anthropic 側でサーバーエラーが起きました。再試行してください。',
    'The reply broke off; what arrived is kept, marked incomplete.':
        '返答が途中で切れました。届いた分は「途中」として残してあります。',
    'The reply stopped before Claude finished it; what arrived is kept, marked incomplete.':
        'Claude が書き終える前に返答が止まりました。届いた分は「途中」として残してあります。',
    "Anthropic's rate limit was reached; try again in {s} s.":
        'Anthropic の利用上限に達しました。{s} 秒後に再試行してください。',
    "Anthropic's rate limit was reached; try again in a minute.":
        'Anthropic の利用上限に達しました。1分ほどしてから再試行してください。',
    'No backup yet':
        'バックアップなし',
    'Backed up {when}':
        'バックアップ済み {when}',
    'Backup made ({when}) in {folder}.':
        'バックアップを作りました（{when}）: {folder}',
    'Backup failed':
        'バックアップ失敗',
    'The backup failed: {problem} Your conversation is unchanged; MONET tries again in an hour (or MONET → Back up now).':
        'バックアップに失敗しました: {problem} 会話は変わっていません。1時間後に再試行します（MONET → 今すぐバックアップ でも可）。',
    'Wait for the reply or the deletion to finish first.':
        '返答か削除が終わるまでお待ちください。',
    'Restored {n} messages from {file}; the replaced database is kept as{kept}.':
        '{file} から {n} 件のメッセージを復元しました。置き換えたデータベースは{kept} として残してあります。',
    'Edit':
        '編集',
    'Regenerate':
        '作り直す',
    'Continue':
        '続ける',
    'Back up now':
        '今すぐバックアップ',
    'Restore from a backup…':
        'バックアップから復元…',
    'Restore from a backup':
        'バックアップから復元',
    'MONET backups (*.zip)':
        'MONET のバックアップ (*.zip)',
    'Replace everything in this data folder with the backup {file}? The current database is kept beside it as a dated copy.':
        'このデータフォルダーの内容をバックアップ {file} で置き換えますか？ 今のデータベースは日付付きのコピーとして隣に残します。',
    'none':
        'なし',
    'Daily backups kept':
        '毎日のバックアップを残す数',
    'Opening the demo in its own window…':
        'デモを別のウィンドウで開いています…',
    'Try the demo':
        'デモを試す',
    'A sample history in its own window and throwaway folder; your data is not touched and nothing is sent anywhere.':
        'サンプルの履歴を別のウィンドウと使い捨てのフォルダーで開きます。あなたのデータには触れず、どこにも何も送りません。',
    'Open the demo…':
        'デモを開く…',
    'MONET — demo':
        'MONET — デモ',
    'DEMO: a sample history in a throwaway folder; a built-in stand-in answers, not Claude':
        'デモ: 使い捨てフォルダーのサンプル履歴です。答えるのは Claude ではなく内蔵の代役です',
    'Please continue from where you stopped.':
        '途切れたところから続けてください。',
    'Key saved in the system keyring.':
        'キーをシステムのキーリングに保存しました。',
    'Key kept for this session only; it is forgotten when MONET quits.':
        'キーはこのセッションの間だけ保持します。MONET を終了すると消えます。',
    'Paste your Anthropic API key (sk-ant-…)':
        'Anthropic の API キーを貼り付け（sk-ant-…）',
    'Use this key':
        'このキーを使う',
    'Welcome to MONET':
        'MONET へようこそ',
    'No API key yet':
        'API キーがまだありません',
    'MONET keeps one conversation per day with Claude. To get answers it needs an Anthropic API key (console.anthropic.com → API keys). Until then you can write, browse and search: everything you type is kept.':
        'MONET は Claude との会話を1日1本にまとめます。返答を受け取るには Anthropic の API キーが必要です（console.anthropic.com → API keys）。それまでも書く・読む・検索することはでき、入力した内容はすべて保存されます。',
    'The key goes to the system keyring; it is never written to a file.':
        'キーはシステムのキーリングに保存され、ファイルには書かれません。',
    'No system keyring here: the key will be kept for this session only, until MONET quits. To keep it, set ANTHROPIC_API_KEY.':
        'このシステムにはキーリングがありません。キーはこのセッションの間だけ、MONET を終了するまで保持されます。残すには ANTHROPIC_API_KEY を設定してください。',
    'Editing your last message: Enter sends it in place of the old one and its reply; Esc cancels.':
        '最後のメッセージを編集中: Enter で元のメッセージと返答に置き換えて送信、Esc で取り消し。',
    'Stop the reply (Esc)':
        '返答を止める（Esc）',
    '&View':
        '表示(&V)',
    'Days pane':
        '日付の欄',
    'Timeline and search pane':
        'タイムラインと検索の欄',
    'Next tab':
        '次のタブ',
    'Previous tab':
        '前のタブ',
    'Go to the message field':
        '入力欄へ移動',
    'Copy message':
        'メッセージをコピー',
    'Edit and resend':
        '編集して送り直す',
    'Regenerate reply':
        '返答を作り直す',
    'Continue this reply':
        'この返答の続きを書かせる',
    'Copied.':
        'コピーしました。',
    'All tabs':
        'すべて',
    'Message to {tab} (Enter sends, Shift+Enter adds a line)':
        '{tab} へのメッセージ（Enter で送信、Shift+Enter で改行）',
    'Undo':
        '元に戻す',
    'Forgotten, with its messages: {fact}':
        '忘れました（元のメッセージも削除）: {fact}',
    'Forgotten: {fact}':
        '忘れました: {fact}',
    'Copy':
        'コピー',
    'Copied':
        'コピーしました',
    'Message copied':
        'メッセージをコピーしました',
    'The best {n} matches':
        '上位 {n} 件',
    '1 match':
        '1 件',
    '{n} matches':
        '{n} 件',
    'kept for this session only':
        'このセッションの間だけ保持',
    'No system keyring here: the key will be kept for this session only, until MONET quits.':
        'このシステムにはキーリングがありません。キーはこのセッションの間だけ、MONET を終了するまで保持されます。',
    'System':
        'システムに合わせる',
    'Light':
        'ライト',
    'Dark':
        'ダーク',
    'Appearance':
        '外観',
    'Click a line, or press Enter, to open its day.':
        '行をクリックするか Enter で、その日を開きます。',
    'Yesterday':
        '昨日',
    'Mon':
        '月',
    'Tue':
        '火',
    'Wed':
        '水',
    'Thu':
        '木',
    'Fri':
        '金',
    'Sat':
        '土',
    'Sun':
        '日',
    'being summarized…':
        '要約作成中…',
    'Nothing yet. Earlier days are summarized here, one line per stretch of talk.':
        'まだありません。過去の会話がここに、ひと続きの話ごとに1行で要約されます。',
    "Something went wrong while asking Claude ({kind}). Your message is saved; details are in monet.log.":
        "Claude への問い合わせ中に問題が起きました（{kind}）。メッセージは保存済みです。詳細は monet.log にあります。",
    "Thread {n}": "スレッド {n}",
    "Something went wrong ({kind}). Nothing you typed was lost; details are in monet.log.":
        "問題が起きました（{kind}）。入力した内容は失われていません。詳細は monet.log にあります。",
    "Wait until the deletion is finished.": "削除が終わるまでお待ちください。",
    "Summarizing {n}": "要約作成中 {n}件",
    "Librarian: nothing pending": "ライブラリアン: 待ちなし",
    "Last reply: in {inp:,} · cache read {read:,} · cache write {write:,} · out {out:,} · ${usd:.4f}":
        "直近の返答: 入力 {inp:,} · キャッシュ読込 {read:,} · キャッシュ書込 {write:,} · 出力 {out:,} · ${usd:.4f}",
    "Today ${usd:.4f}": "今日 ${usd:.4f}",
    "Wait for the reply to finish (or press Stop) before changing settings.":
        "返答が終わるまで（または停止を押してから）設定を変えてください。",
    "New thread": "新しいスレッド",
    "Retry": "再試行",
    "OK": "OK",
    "Close this notice": "このお知らせを閉じる",
    "Send": "送信",
    "Stop": "停止",
    "What Claude remembers (Timeline Index)": "Claude が覚えていること（Timeline Index）",
    "Settings…": "設定…",
    "&MONET": "&MONET",
    "Quit": "終了",
    "Days": "日付",
    "Today": "今日",
    "Threads": "スレッド",
    "{day} is a past day, shown read-only. Sending posts to today.":
        "{day} は過去の日です（読み取り専用）。送信すると今日の会話に入ります。",
    "Sending returns to today": "送信すると今日に戻ります",
    "Message (Enter sends, Shift+Enter adds a line)": "メッセージ（Enter で送信、Shift+Enter で改行）",
    "You": "あなた",
    "Tool": "ツール",
    "(incomplete)": "（途中で途切れました）",
    "MONET settings": "MONET の設定",
    "in use from ANTHROPIC_API_KEY": "ANTHROPIC_API_KEY を使用中",
    "stored in the OS keyring": "OS のキーチェーンに保存済み",
    "not set": "未設定",
    "Anthropic API key ({where})": "Anthropic API キー（{where}）",
    "One conversation per day (sunset model)": "一日ひとつの会話（日没モデル）",
    "API key": "API キー",
    "Model": "モデル",
    "Tabs (id=label, …)": "タブ（id=表示名, …）",
    "Token ceiling": "トークン上限",
    "Day starts at": "一日の始まり",
    "Librarian every (minutes)": "ライブラリアンの間隔（分）",
    "Promote to lasting memory": "永続的な記憶に昇格",
    "Promote to lasting memory…": "永続的な記憶に昇格…",
    "Claude reads promoted statements in every request, from the next message on.":
        "昇格した内容は、次のメッセージから毎回 Claude に渡されます。",
    "Category": "カテゴリ",
    "Statement": "内容",
    "Promote": "昇格する",
    "Promoted under {heading}; Claude reads it from the next message.":
        "「{heading}」に昇格しました。次のメッセージから Claude に渡されます。",
    "Search all days (Ctrl+F)": "すべての日を検索（Ctrl+F）",
    "Search…": "検索…",
    "No message matches.": "一致するメッセージはありません。",
    "What MONET remembers": "MONET が覚えていること",
    "What MONET remembers…": "MONET が覚えていること…",
    "Correct…": "訂正…",
    "Correct": "訂正",
    "Delete": "削除",
    "What is true:": "正しい内容:",
    "Forgetting an item removes it from every later request, with the messages it came from: they stay in your history but Claude no longer sees them (or you delete them too). Correcting an item changes what Claude reads from the next message on.":
        "忘れた項目は、その元になったメッセージとともにこれ以降どのリクエストにも入りません。メッセージは履歴に残りますが Claude からは見えなくなります（一緒に削除することもできます）。訂正すると次のメッセージから Claude が読む内容が変わります。",
    "Forget": "忘れる",
    "Close": "閉じる",
    "Preference": "好み",
    "Promise": "約束",
    "Done together": "一緒にしたこと",
    "Asked to remember": "覚えてと頼まれたこと",
    "↓ Latest": "↓ 最新へ",
    "Attach pictures or documents (Ctrl+Shift+A); pasting or dropping them on the message field works too":
        "画像や文書を添付 (Ctrl+Shift+A)。メッセージ欄への貼り付けやドロップでも添付できます",
    "Attach pictures or documents": "画像や文書を添付",
    "Pictures and documents (*.png *.jpg *.jpeg *.gif *.webp *.pdf *.txt *.md);;All files (*)":
        "画像と文書 (*.png *.jpg *.jpeg *.gif *.webp *.pdf *.txt *.md);;すべてのファイル (*)",
    "Remove {name}": "{name} を外す",
    "No program here opens {name}.": "{name} を開けるアプリがありません。",
    "Files": "ファイル",
    "MONET — shared history on {where}": "MONET — 共有の履歴（{where}）",
    "This history is on a server and can be open on your other devices at the same time: their messages appear here within seconds. On each device, one window per data folder.":
        "この履歴はサーバーにあり、ほかの端末でも同時に開けます。そちらのメッセージも数秒でここに表示されます。各端末では、データフォルダーごとにウィンドウは1つです。",
    "{name} could not be opened here: {detail}": "{name} を開けませんでした: {detail}",
    "Go to the days": "日付の一覧へ移動",
    "Open {name}": "{name} を開く",
    "Picture": "画像",
    "1 page": "1 ページ",
    "Text": "テキスト",
    "Loading…": "読み込み中…",
    "Open in another app": "別のアプリで開く",
    "This picture cannot be read.": "この画像は読み込めません。",
    "about {n:,} tokens": "約 {n:,} トークン",
    "{n} pages": "{n} ページ",
    "The file": "ファイル",
    "{name} is not a kind Claude can read here (pictures: PNG, JPEG, GIF, WebP; documents: PDF or plain text); nothing was attached.":
        "{name} は Claude が読める種類ではありません（画像: PNG・JPEG・GIF・WebP、文書: PDF・テキスト）。添付していません。",
    "{name} is too large to send (pictures up to 40 MB, PDFs up to 32 MB and 100 pages, text up to 1 MB); nothing was attached.":
        "{name} は大きすぎて送れません（画像は 40 MB、PDF は 32 MB・100 ページ、テキストは 1 MB まで）。添付していません。",
    "{name} looks damaged and cannot be read; nothing was attached.":
        "{name} は壊れているようで読めません。添付していません。",
    "*Waiting for Claude… When the API is busy, MONET tries again by itself.*":
        "*Claude の返事を待っています… API が混んでいるときは MONET が自動でやり直します。*",
    "Show the earlier version": "前の版を表示",
    "Show the later version": "次の版を表示",
    "Model for the next replies (Ctrl+Shift+M)": "次の返事に使うモデル (Ctrl+Shift+M)",
    "The key in use comes from the ANTHROPIC_API_KEY variable, which goes before a key typed here.":
        "使用中のキーは環境変数 ANTHROPIC_API_KEY のものです。ここに入力したキーより優先されます。",
    "MONET is already running on this data folder ({home}); its window was brought forward.":
        "このデータフォルダ ({home}) の MONET はすでに起動しています。そのウィンドウを前面に出しました。",
    "MONET is already running on this data folder ({home}) but did not answer; it may be starting or closing. No second window was opened.":
        "このデータフォルダ ({home}) の MONET はすでに起動していますが、応答がありません。起動中か終了中かもしれません。2つ目のウィンドウは開きませんでした。",
    "Jump to the latest message": "最新のメッセージへ移動",
    "Fact": "事実",
    "About you": "あなたについて",
    "Claude forgets it; the messages it came from stay in your history, hidden from Claude.":
        "Claude はこれを忘れます。元のメッセージは履歴に残り、Claude からは見えなくなります。",
    "Forget and delete its messages…": "忘れて元のメッセージも削除…",
    "Delete messages": "メッセージの削除",
    "Forget this item and delete the messages it came from (and Claude's replies to them) from your history? This cannot be undone.":
        "この項目を忘れ、元になったメッセージ（と Claude の返答）を履歴から削除しますか？ 元に戻せません。",
    "(forgotten: Claude no longer sees this)": "（忘れた内容: Claude にはもう見えません）",
    " (contradiction: Claude is not told it until you keep one)":
        "（矛盾あり・どちらかを残すまで Claude には伝えません）",
    "Keep this one": "こちらが正しい",
    "Of two items that contradict each other, this one is true: Claude is told it from "
    "the next message, and the other becomes its history.":
        "矛盾する2つのうち、こちらが正しいとします。次のメッセージから Claude に伝わり、"
        "もう一方はその履歴になります。",
    "Nothing is remembered yet.": "まだ何も覚えていません。",
    "From: {source}": "出典: {source}",
    "Delete this day…": "この日を削除…",
    "Delete everything said on {day}? Claude will not see it again.":
        "{day} の会話をすべて削除しますか？ Claude がこれを見ることはもうありません。",
    "Delete this message…": "このメッセージを削除…",
    "Delete this message and what was drawn from it?": "このメッセージと、そこから作られた要約・記憶を削除しますか？",
    "Wait for the reply to finish before deleting.": "返答が終わってから削除してください。",
    "Add…": "追加…",
    "(counts in {day})": "（{day} の分）",
    "Add": "追加",
    "Write something MONET should remember, in your own words; it replaces what it says "
    "changed.": "MONET に覚えてほしいことを自分の言葉で書きます。変わったことなら、前の記憶と置き換わります。",
    "What should MONET remember about you?": "MONET に何を覚えておいてほしいですか？",
    "Added by you on {day}": "{day} にあなたが追加",
    "Before: {fact} (remembered {day})": "以前: {fact}（{day} に記憶）",
    " — before: {fact}": " — 以前: {fact}",
    "Incognito today (nothing becomes a memory)": "今日はシークレット（記憶に残さない）",
    "tab ids, e.g. social": "タブの id（例: social）",
    "Incognito tabs (no memories)": "シークレットのタブ（記憶に残さない）",
    "Nothing in this tab on this day.": "この日のこのタブには会話がありません。",
    "Nothing in this tab yet today. Write below; Claude sees every tab.":
        "今日はまだこのタブの会話がありません。下に書いてください（Claude はどのタブの話も見ています）。",
}


def main() -> int:
    path = Path(__file__).with_name("monet_ja.ts")
    tree = ET.parse(path)
    missing = []
    for message in tree.iter("message"):
        source = message.findtext("source") or ""
        translation = message.find("translation")
        assert translation is not None
        if source in JA:
            translation.text = JA[source]
            translation.attrib.pop("type", None)
        else:
            missing.append(source)
    tree.write(path, encoding="utf-8", xml_declaration=True)
    for source in missing:
        print(f"no Japanese for: {source!r}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
