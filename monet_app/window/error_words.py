"""The window's Japanese for MONET's error sentences: a catalog keyed by the English
template, as gettext's message ids are (``storage/errors.py``).

``JA`` maps each English template a ``UserFacingError`` (or a ``Phrase`` of one) is
raised with to its Japanese, with exactly the same ``{placeholders}`` (and the same
format specs); ``say`` fills it with the error's values. A template the catalog lacks is
said as it is, in English: ``tests/test_error_words.py`` fails on any raise whose
template has no entry here, on an entry no raise names any more, and on placeholders
that differ. The terms are the window's own (``assets/i18n/translate_ja.py``):
データフォルダー, 履歴, バックアップ, 復元, 要約, 記憶; "Claude", "Timeline Index",
command names and options (``monet restore``, ``--force``) stay as they are.

Plain Python (no Qt): ``monet_app/window/words.py`` decides the window's language and
asks ``say``.
"""

from __future__ import annotations

from storage.errors import Phrase, Phrases, UserFacingError, formatted

#: How the Japanese joins several phrases of one sentence (``Phrases``).
JA_SEPARATOR = "、"

JA: dict[str, str] = {
    # ----- attachments (cms/attachments.py, storage/attachments.py, operations/conversation.py)
    "{name} is empty; nothing was attached.":
        "{name} は空です。添付していません。",
    "{name} is not a kind Claude can read here (pictures: PNG, JPEG, GIF, WebP; documents: PDF or "
    "plain text).":
        "{name} は Claude が読める種類ではありません（画像: PNG・JPEG・GIF・WebP、"
        "文書: PDF・テキスト）。",
    "{name} is larger than 1 MB of text; attach a shorter part.":
        "{name} はテキストとして 1 MB を超えています。短く分けて添付してください。",
    "{name} is larger than 40 MB; nothing was attached.":
        "{name} は 40 MB を超えています。添付していません。",
    "{name} is still larger than 5 MB once scaled down.":
        "{name} は縮小しても 5 MB を超えています。",
    "{name} is larger than 32 MB, the API's limit for a PDF.":
        "{name} は PDF の上限である 32 MB を超えています。",
    "{name} has no pages.":
        "{name} にはページがありません。",
    "{name} has {pages} pages; the API reads at most 100.":
        "{name} は {pages} ページあります。API が読めるのは 100 ページまでです。",
    "{name} looks damaged and cannot be read ({exc}).":
        "{name} は壊れているようで読めません（{exc}）。",
    "The attached file {folder}/{short}… in {home} holds other bytes than the ones that were "
    "attached (it was changed or replaced); it is not used.":
        "{home} の添付ファイル {folder}/{short}… の中身が、"
        "添付したときと違います（変更されたか置き換えられています）。このファイルは使いません。",
    "{name} could not be opened ({reason}).":
        "{name} を開けませんでした（{reason}）。",
    "{name} cannot be read ({reason}).":
        "{name} を読めません（{reason}）。",
    "{name} is not a regular file (a device, pipe or socket); MONET reads only files.":
        "{name} は通常のファイルではありません（デバイス、パイプ、ソケットなど）。"
        "MONET が読むのはファイルだけです。",
    "{name} is {size:,.1f} MB; a file to attach can be at most {limit:,.0f} MB.":
        "{name} は {size:,.1f} MB あります。添付できるファイルは {limit:,.0f} MB までです。",
    "{name} is larger than {limit:,.0f} MB (it grew while it was read); a file to attach can be "
    "at most that.":
        "{name} は {limit:,.0f} MB を超えています（読み込み中に大きくなりました）。"
        "添付できるのはその大きさまでです。",
    # ----- promoting, the conversation, memories
    "Unknown category {category!r}: use values, decisions or facts.":
        "カテゴリ {category!r} はありません。values・decisions・facts のどれかを使ってください。",
    "The statement is empty; nothing was promoted.":
        "内容が空です。何も昇格していません。",
    "A promoted statement is one short sentence (at most {limit} characters; this one has "
    "{length:,}): every request carries it. Nothing was promoted.":
        "昇格する内容は短い一文にしてください（{limit} 文字まで。これは {length:,} 文字です）。"
        "毎回のリクエストに入るためです。何も昇格していません。",
    "A promoted statement says something about you (a value, a decision, a fact), not an "
    'instruction to Claude: say it as, for example, "I prefer short answers." Nothing was '
    "promoted.":
        "昇格する内容は、Claude への指示ではなく、あなたについてのこと（大切にしていること、"
        "決めたこと、事実）です。たとえば「短い答えが好きです。」のように書いてください。"
        "何も昇格していません。",
    "There is no message waiting for a reply.":
        "返答を待っているメッセージはありません。",
    "This message is too long for {model}: about {tokens:,} tokens with the context, and the "
    "model takes {window:,}. It was saved; shorten it or split it and send again.":
        "このメッセージは {model} には長すぎます。"
        "文脈を含めて約 {tokens:,} トークンあり、モデルが受け取れるのは {window:,} トークンです。"
        "メッセージは保存しました。短くするか分けて、もう一度送ってください。",
    "The message is empty; nothing was sent.":
        "メッセージが空です。何も送っていません。",
    "Those messages do not exist (already deleted?).":
        "それらのメッセージはありません（すでに削除されていませんか？）。",
    "Nothing is stored for {day}.":
        "{day} には何も保存されていません。",
    "No memory item {item_id}.":
        "記憶の項目 {item_id} はありません。",
    "The new text is empty; to remove the item, delete it.":
        "新しい内容が空です。項目を消すには、削除してください。",
    "The text is empty: write what MONET should remember.":
        "内容が空です。MONET に覚えてほしいことを書いてください。",
    "A memory is one short statement (at most {limit} characters); this one has {length}.":
        "記憶は短い一文にしてください（{limit} 文字まで）。これは {length} 文字です。",
    "This is already remembered.":
        "これはすでに覚えています。",
    "memory {action} needs an item number.":
        "memory {action} には項目の番号が必要です。",
    # ----- the model
    "The stand-in model has no scripted reply for this turn.":
        "代役のモデルには、この発言への用意された返答がありません。",
    "No Anthropic API key. Paste one in the window (or Settings), or set ANTHROPIC_API_KEY. Your "
    "messages are kept; Claude answers once a key is set.":
        "Anthropic の API キーがありません。"
        "ウィンドウ（または設定）に貼り付けるか、ANTHROPIC_API_KEY を設定してください。"
        "メッセージは残してあります。キーが入ると Claude が答えます。",
    "The API key has a space or a line break inside it. Set it again on one line (Settings, or "
    "the ANTHROPIC_API_KEY variable).":
        "API キーの中に空白か改行が入っています。"
        "1行で設定し直してください（設定、または環境変数 ANTHROPIC_API_KEY）。",
    "Anthropic refused the request ({status}): {text}":
        "Anthropic がリクエストを拒否しました（{status}）: {text}",
    "The reply stopped before Claude finished it (the stream ended early); what arrived is kept "
    "and marked incomplete.":
        "Claude が書き終える前に返答が止まりました（ストリームが途中で終わりました）。"
        "届いた分は「途中」として残してあります。",
    "prompt is too long for the model's context window":
        "プロンプトがモデルのコンテキストウィンドウに収まりません",
    "{too_long}":
        "プロンプトがモデルのコンテキストウィンドウに収まりません（{too_long}）",
    "The Anthropic API key was refused (401). Check the key in Settings or ANTHROPIC_API_KEY; "
    "your message is saved.":
        "Anthropic の API キーが拒否されました（401）。"
        "設定か ANTHROPIC_API_KEY のキーを確認してください。メッセージは保存済みです。",
    "This API key may not do that (403): {text}":
        "この API キーではその操作はできません（403）: {text}",
    "Anthropic's rate limit was reached (429) after retries. Try again in a minute; your message "
    "is saved.":
        "再試行しましたが Anthropic の利用上限に達しています（429）。"
        "1分ほどしてから再試行してください。メッセージは保存済みです。",
    "Anthropic's rate limit was reached (429) after retries. Try again in {wait:.0f} s; your "
    "message is saved.":
        "再試行しましたが Anthropic の利用上限に達しています（429）。"
        "{wait:.0f} 秒後に再試行してください。メッセージは保存済みです。",
    "Claude is overloaded right now (529). Your message is saved; try again shortly.":
        "Claude は今混み合っています（529）。メッセージは保存済みです。"
        "少ししてから再試行してください。",
    "The request is too large for the API (413): {text}":
        "リクエストが API には大きすぎます（413）: {text}",
    "Anthropic had a server error ({status}). Your message is saved; try again.":
        "Anthropic 側でサーバーエラーが起きました（{status}）。メッセージは保存済みです。"
        "再試行してください。",
    "Claude did not answer in time (timeout). Your message is saved; try again.":
        "Claude が時間内に答えませんでした（タイムアウト）。メッセージは保存済みです。"
        "再試行してください。",
    "No connection to Anthropic (network down or unreachable: {detail}). Your message is saved; "
    "MONET keeps working offline and you can retry.":
        "Anthropic に接続できません（ネットワークが切れているか届きません: {detail}）。"
        "メッセージは保存済みです。MONET はオフラインでも使え、あとで再試行できます。",
    "The Anthropic SDK failed: {detail}":
        "Anthropic の SDK でエラーが起きました: {detail}",
    "The reply broke off ({kind}); what arrived is kept and marked incomplete.":
        "返答が途中で切れました（{kind}）。届いた分は「途中」として残してあります。",
    "This command does not talk to Claude.":
        "このコマンドは Claude とやり取りしません。",
    "No model is configured yet.":
        "モデルがまだ設定されていません。",
    # ----- settings (cms/settings.py): the sentence, and each problem in it
    "Invalid settings: {problems}.":
        "設定が正しくありません: {problems}。",
    "the token ceiling must be above 0 (got {ceiling})":
        "トークン上限は 0 より大きくしてください（指定: {ceiling}）",
    "at least 1 exchange must be kept raw (keep is {keep})":
        "そのまま残すやり取りは 1 つ以上にしてください（指定: {keep}）",
    "the low-water mark must be below the ceiling: a fraction between 0 and 1 (got {fraction})":
        "下限の目安は上限より下、0 と 1 の間の割合にしてください（指定: {fraction}）",
    "the day boundary must be HH:MM, 00:00-23:59 (got {start!r})":
        "一日の始まりは HH:MM（00:00～23:59）で指定してください（指定: {start!r}）",
    "max_tokens must be above 0 (got {max_tokens})":
        "max_tokens は 0 より大きくしてください（指定: {max_tokens}）",
    "the segment pause must be above 0 minutes":
        "話の区切りとみなす間隔は 0 分より長くしてください",
    "the segment size must be above 0 tokens":
        "話の区切りの大きさは 0 トークンより大きくしてください",
    "the Timeline Index budget must be above 0 tokens":
        "Timeline Index の予算は 0 トークンより大きくしてください",
    "the context block budget must be at least 200 tokens":
        "コンテキストブロックの予算は 200 トークン以上にしてください",
    "the librarian interval must be above 0 minutes":
        "ライブラリアンの間隔は 0 分より長くしてください",
    "the librarian summarizer must be claude or offline":
        "ライブラリアンの要約方法は claude か offline にしてください",
    "a model name is needed":
        "モデル名が必要です",
    "tabs need at least one entry and unique ids":
        "タブは 1 つ以上必要で、id は重複しないようにしてください",
    "the pinned cache lifetime must be 5m or 1h (got {ttl!r})":
        "固定部分のキャッシュの有効期間は 5m か 1h にしてください（指定: {ttl!r}）",
    "the Timeline Index cache lifetime must be 5m or 1h (got {ttl!r})":
        "Timeline Index のキャッシュの有効期間は 5m か 1h にしてください（指定: {ttl!r}）",
    "a 1-hour breakpoint cannot follow a 5-minute one (pinned 5m, TI 1h)":
        "5 分のキャッシュ区切りのあとに 1 時間の区切りは置けません（固定部分 5m、TI 1h）",
    "the conversation's cache lifetime must be auto, 5m or 1h (got {ttl!r})":
        "会話のキャッシュの有効期間は auto・5m・1h のどれかにしてください（指定: {ttl!r}）",
    "a 1-hour breakpoint cannot follow a 5-minute one (turn 1h)":
        "5 分のキャッシュ区切りのあとに 1 時間の区切りは置けません（会話 1h）",
    "retries must be 0 or more and the timeout above 0 seconds":
        "再試行の回数は 0 以上、タイムアウトは 0 秒より長くしてください",
    "the backups kept must be from 0 to 3,650 (got {keep})":
        "残すバックアップの数は 0 から 3,650 までにしてください（指定: {keep}）",
    "the appearance must be system, light or dark (got {theme!r})":
        "外観は system・light・dark のどれかにしてください（指定: {theme!r}）",
    "the core prompt (pinned instructions) cannot be empty":
        "コアプロンプト（固定の指示）は空にできません",
    "{name} cannot be {value!r} ({reason})":
        "{name} を {value!r} にはできません（{reason}）",
    "it must be true or false": "true か false にしてください",
    "it must be a whole number": "整数にしてください",
    "it must be a number": "数値にしてください",
    "it must be text": "文字列にしてください",
    "it must be a list": "リストにしてください",
    "it must be a table of names and values": "名前と値の表にしてください",
    "MONET has no such setting": "MONET にその設定はありません",
    "it cannot be used there": "そこには使えません",
    # ----- the database (storage/database.py, storage/where.py)
    "{where} already holds a history; MONET copies only into an empty one (a new database, a new "
    "data folder). Nothing was copied.":
        "{where} にはすでに履歴があります。"
        "MONET がコピーするのは空の移し先（新しいデータベースか新しいデータフォルダー）だけです。"
        "何もコピーしていません。",
    "The copy in {where} does not match its source ({problems}); do not use it.":
        "{where} のコピーが元の履歴と一致しません（{problems}）。このコピーは使わないでください。",
    "The database server {where} refused the login. Check the user and the password (`monet "
    "server-password` keeps it in the system keyring; ~/.pgpass works too); nothing was changed.":
        "データベースサーバー {where} がログインを拒否しました。"
        "ユーザーとパスワードを確認してください（`monet server-password` "
        "でシステムのキーリングに保存できます。~/.pgpass も使えます）。何も変更していません。",
    "The database server {where} has no database named {name}. Create it as the server's "
    "administrator (createdb -O USER {name}; docs/postgresql.md) or check the URL; nothing was "
    "changed.":
        "データベースサーバー {where} に {name} という名前のデータベースがありません。"
        "サーバーの管理者として作るか（createdb -O USER {name}、docs/postgresql.md）、"
        "URL を確かめてください。何も変更していません。",
    "The database server {where} has no login named {name}. Create it as the server's "
    "administrator (createuser --pwprompt {name}; docs/postgresql.md) or check the URL; nothing "
    "was changed.":
        "データベースサーバー {where} に {name} というログインがありません。"
        "サーバーの管理者として作るか（createuser --pwprompt {name}、docs/postgresql.md）、"
        "URL を確かめてください。何も変更していません。",
    "MONET joins a history on a PostgreSQL server (postgresql://user@host:5432/monet); "
    "{target} is not one. Nothing was changed.":
        "MONET が参加できるのは PostgreSQL サーバー上の履歴です（postgresql://user@host:5432/"
        "monet）。{target} はそうではありません。何も変更していません。",
    "The history at {where} was written by a newer MONET (schema {current}). Update MONET on "
    "this device, then join; nothing was changed.":
        "{where} の履歴は新しい MONET（スキーマ {current}）で書かれています。このデバイスの "
        "MONET を更新してから参加してください。何も変更していません。",
    "{home} holds a history of its own; joining would hide it. Join from a new data folder "
    "(--home NEW), or move this history to the server with monet migrate-to URL --switch. "
    "Nothing was changed.":
        "{home} には独自の履歴があり、参加するとそれが隠れてしまいます。新しいデータフォルダーから"
        "参加するか（--home NEW）、monet migrate-to URL --switch でこの履歴をサーバーへ移して"
        "ください。何も変更していません。",
    "The database server {where} has no such database or user ({detail}).":
        "データベースサーバー {where} に、そのデータベースかユーザーがありません（{detail}）。",
    "No database server listens on this machine's socket for {where}. Start it, or give the "
    "server's host in the URL (postgresql://user@host/monet).":
        "このマシンのソケットで {where} のデータベースサーバーが待ち受けていません。"
        "サーバーを起動するか、URL にサーバーのホストを書いてください（postgresql:"
        "//user@host/monet）。",
    "The database URL {where} is not valid ({detail}). See docs/postgresql.md for its form.":
        "データベースの URL {where} が正しくありません（{detail}）。"
        "書き方は docs/postgresql.md を見てください。",
    "The database server {where} cannot be reached. Check that it is running and that this device "
    "can reach it.":
        "データベースサーバー {where} に接続できません。"
        "サーバーが動いていて、この端末から届くことを確認してください。",
    "The database {path} is locked by another program. Close the other MONET window or process "
    "and try again; nothing was lost.":
        "データベース {path} はほかのプログラムがロックしています。"
        "ほかの MONET のウィンドウかプロセスを閉じて、もう一度試してください。"
        "失われたものはありません。",
    "The database {path} is damaged ({text}). MONET did not change it. Keep a copy of the file; "
    "restore a backup or move the file away to start fresh.":
        "データベース {path} が壊れています（{text}）。MONET は変更していません。"
        "ファイルのコピーを取っておき、バックアップから復元するか、"
        "ファイルを移動して新しく始めてください。",
    "The database {path} cannot be written ({text}).":
        "データベース {path} に書き込めません（{text}）。",
    "The disk holding {path} is full or failing ({text}). Free some space; what was stored before "
    "is kept.":
        "{path} のあるディスクがいっぱいか、故障しかけています（{text}）。空きを作ってください。"
        "これまでに保存したものは残っています。",
    "{home} is a file, not a folder, so it cannot be a MONET data folder; nothing was written.":
        "{home} はフォルダーではなくファイルなので、MONET のデータフォルダーにはできません。"
        "何も書き込んでいません。",
    "{path} is not a file (a folder?), so MONET cannot keep its history there; nothing was "
    "written.":
        "{path} はファイルではない（フォルダー？）ため、MONET はそこに履歴を保存できません。"
        "何も書き込んでいません。",
    "The history at {where} is on a PostgreSQL server, and this MONET was installed without the "
    "server's driver. Install it with pip install 'monet[server]' (or pip install "
    "'psycopg[binary]') and try again; nothing was written.":
        "{where} の履歴は PostgreSQL サーバーにありますが、"
        "この MONET はサーバー用のドライバーなしでインストールされています。"
        "pip install 'monet[server]'（または pip install 'psycopg[binary]'）でインストールして、"
        "もう一度試してください。何も書き込んでいません。",
    "MONET cannot open {home}: a restore into it did not end, or its lock file cannot be used "
    "({exc}). Try again in a moment.":
        "MONET は {home} を開けません。"
        "そこへの復元が終わっていないか、ロックファイルが使えません（{exc}）。"
        "少ししてからもう一度試してください。",
    "The database {path} needs an upgrade to this MONET's schema, but it cannot be written here "
    "(read-only). Open it once where it can be written; it was not changed.":
        "データベース {path} はこの MONET のスキーマへの更新が必要ですが、"
        "ここでは書き込めません（読み取り専用）。書き込める場所で一度開いてください。"
        "データベースは変更していません。",
    "The reply kept while the server was away is in the history now; nothing else was "
    "changed. Look at it, then try again.":
        "サーバーに接続できないあいだ保存していた返事を、いま履歴に書き込みました。ほかは何も"
        "変更していません。内容を確かめてから、もう一度試してください。",
    "The database {path} was written by an older MONET whose schema ({current}) this MONET "
    "cannot upgrade. Open it with that MONET and make a backup (monet backup), then restore the "
    "backup here; it was not changed.":
        "データベース {path} は古い MONET で書かれていて、そのスキーマ（{current}）をこの MONET "
        "は更新できません。その MONET で開いてバックアップを作り（monet backup）、ここで復元して"
        "ください。データベースは変更していません。",
    "The database {path} was written by a newer MONET (schema {current}). Update MONET to open "
    "it; it was not changed.":
        "データベース {path} は新しい MONET で書かれています（スキーマ {current}）。"
        "開くには MONET を更新してください。データベースは変更していません。",
    "The database {path} is empty (0 bytes): it was emptied or cut short, so it is not a new "
    "home. Restore it from a backup, or move it away to start a new one; nothing was changed.":
        "データベース {path} が空です（0 バイト）。"
        "中身が消えたか途中で切れたもので、新しいデータフォルダーではありません。"
        "バックアップから復元するか、ファイルを移動して新しく始めてください。"
        "何も変更していません。",
    "The database {where} was made by a development build of MONET (before its search and shared "
    "files were complete). Copy it into a data folder with that build (monet migrate-to FOLDER), "
    "then onto a new database with this one; it was not changed.":
        "データベース {where} は MONET の開発版（検索と共有ファイルが完成する前）"
        "で作られています。その版でデータフォルダーにコピーし（monet migrate-to FOLDER）、"
        "この版で新しいデータベースへ移してください。データベースは変更していません。",
    "The database {database} on {where} already holds tables MONET did not make "
    "({tables}{more}): it belongs to another program. MONET keeps a history in a database of "
    "its own; create one (createdb -O {user} monet, see docs/postgresql.md) and give its URL. "
    "Nothing was changed.":
        "{where} のデータベース {database} には MONET が作っていないテーブルがあります"
        "（{tables}{more}）。別のプログラムのデータベースです。MONET は履歴を専用のデータベースに"
        "置きます。新しく作って（createdb -O {user} monet、docs/postgresql.md を参照）、その URL を"
        "指定してください。何も変更していません。",
    "The user {user} may not create tables in the database {database} on {where} (PostgreSQL 15 "
    "and later let only the database's owner, now {owner}, do that). As the server's "
    "administrator, run ALTER DATABASE {database} OWNER TO {user}; or, in that database, GRANT "
    "CREATE ON SCHEMA public TO {user}; then try again. Nothing was changed.":
        "ユーザー {user} は {where} のデータベース {database} にテーブルを作れません"
        "（PostgreSQL 15 以降では、データベースの所有者（今は {owner}）だけが作れます）。"
        "サーバーの管理者として ALTER DATABASE {database} OWNER TO {user}; を実行するか、"
        "そのデータベースで GRANT CREATE ON SCHEMA public TO {user}; を実行してから、"
        "もう一度試してください。何も変更していません。",
    "The database {database} on {where} sorts and classifies text by the {ctype} locale, in which "
    "MONET's search cannot find Japanese words nor fold accented letters. Create it with a UTF-8 "
    "locale: CREATE DATABASE {database} OWNER {user} ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' "
    "LC_CTYPE 'C.UTF-8' TEMPLATE template0; nothing was changed.":
        "{where} のデータベース {database} は文字を {ctype} ロケールで扱います。このままでは "
        "MONET の検索が日本語の言葉を見つけられず、アクセント付きの文字もそろえられません。"
        "UTF-8 のロケールで作り直してください: CREATE DATABASE {database} OWNER {user} "
        "ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8' TEMPLATE template0; "
        "何も変更していません。",
    "The database server {where} does not let this login change MONET's tables ({detail}). "
    "Make the login the owner of the database and of its tables (ALTER DATABASE ... OWNER TO "
    "...; as the administrator), then try again; nothing was changed.":
        "データベースサーバー {where} は、このログインに MONET のテーブルの変更を許していません"
        "（{detail}）。管理者として、ログインをデータベースとそのテーブルの所有者にしてから"
        "（ALTER DATABASE ... OWNER TO ...;）、もう一度試してください。何も変更していません。",
    "MONET needs a UTF-8 database (this one is {encoding}): CREATE DATABASE monet ENCODING 'UTF8' "
    "TEMPLATE template0; nothing was changed.":
        "MONET には UTF-8 のデータベースが必要です（これは {encoding} です）。"
        "CREATE DATABASE monet ENCODING 'UTF8' TEMPLATE template0 で作ってください。"
        "何も変更していません。",
    "MONET keeps its history in a SQLite file or on a PostgreSQL server; {url} is neither "
    "(postgresql://user@host:5432/monet).":
        "MONET の履歴は SQLite のファイルか PostgreSQL サーバーに置きます。"
        "{url} はどちらでもありません（postgresql://user@host:5432/monet）。",
    # ----- passwords and keys (storage/server_password.py, services/keys.py)
    "The password is empty; nothing was stored.":
        "パスワードが空です。何も保存していません。",
    "No OS keyring is available on this system. Put the password in ~/.pgpass (host:port:database:"
    "user:password, mode 0600) instead; MONET never writes it in a file of its own.":
        "このシステムでは OS のキーリングが使えません。"
        "代わりにパスワードを ~/.pgpass（host:port:database:user:password、モード 0600）"
        "に書いてください。MONET が自分のファイルにパスワードを書くことはありません。",
    "The OS keyring refused to store the password ({kind}); nothing was stored.":
        "OS のキーリングがパスワードの保存を拒否しました（{kind}）。何も保存していません。",
    "The API key is empty; nothing was stored.":
        "API キーが空です。何も保存していません。",
    "The API key has a space or a line break inside it; nothing was stored. Paste the key alone, "
    "on one line.":
        "API キーの中に空白か改行が入っています。何も保存していません。"
        "キーだけを1行で貼り付けてください。",
    "No OS keyring is available on this system, and MONET never keeps the key in a plain file. "
    "Set the ANTHROPIC_API_KEY environment variable instead.":
        "このシステムでは OS のキーリングが使えません。"
        "MONET はキーを普通のファイルには保存しません。"
        "代わりに環境変数 ANTHROPIC_API_KEY を設定してください。",
    "The OS keyring refused to store the key ({why}); nothing was stored. Unlock the keyring and "
    "save again, or set the ANTHROPIC_API_KEY environment variable.":
        "OS のキーリングがキーの保存を拒否しました（{why}）。何も保存していません。"
        "キーリングのロックを解除してもう一度保存するか、"
        "環境変数 ANTHROPIC_API_KEY を設定してください。",
    # ----- the command line: export, install-desktop, librarian schedules, demo
    "{out} is a folder; give a file name (for example {example}).":
        "{out} はフォルダーです。ファイル名を指定してください（例: {example}）。",
    "{out} is not a regular file (a device, pipe or socket); MONET writes exports only to regular "
    "files.":
        "{out} は通常のファイルではありません（デバイス、パイプ、ソケットなど）。"
        "MONET がエクスポートを書き出すのは通常のファイルだけです。",
    "{folder} is not a folder; give a folder for the attachments.":
        "{folder} はフォルダーではありません。添付ファイル用のフォルダーを指定してください。",
    "--day needs a date as YYYY-MM-DD (got {day!r}).":
        "--day には YYYY-MM-DD 形式の日付が必要です（指定: {day!r}）。",
    "monet install-desktop is for Linux desktops. On macOS, build MONET.app (packaging/README.md) "
    "and drag it to Applications, or start MONET with the monet command.":
        "monet install-desktop は Linux のデスクトップ用です。"
        "macOS では MONET.app をビルドして（packaging/README.md）"
        "アプリケーションフォルダーにドラッグするか、monet コマンドで MONET を起動してください。",
    "monet install-desktop is for Linux desktops. On Windows, build the bundle "
    "(packaging/README.md) and pin dist\\monet\\monet.exe to Start (right-click, Pin to Start), "
    "or start MONET with the monet command.":
        "monet install-desktop は Linux のデスクトップ用です。"
        "Windows ではバンドルをビルドして（packaging/README.md）"
        "dist\\monet\\monet.exe をスタートにピン留めするか（右クリック→スタートにピン留めする）、"
        "monet コマンドで MONET を起動してください。",
    "monet install-desktop is for Linux desktops (freedesktop.org menus); on this system, start "
    "MONET with the monet command.":
        "monet install-desktop は Linux のデスクトップ（freedesktop.org のメニュー）用です。"
        "このシステムでは monet コマンドで MONET を起動してください。",
    "Could not write {target} ({reason}); nothing else was changed after it.":
        "{target} を書き込めませんでした（{reason}）。それ以降は何も変更していません。",
    "Unknown schedule kind {kind!r}: use launchd, systemd, cron or service.":
        "予定の種類 {kind!r} はありません。"
        "launchd・systemd・cron・service のどれかを使ってください。",
    "The librarian service runs beside a history on a PostgreSQL server; this data folder's "
    "history is its SQLite file (use --kind systemd for a daily pass, or --database-url "
    "postgresql://...).":
        "ライブラリアンのサービスは PostgreSQL サーバー上の履歴に付いて動くものです。"
        "このデータフォルダーの履歴は SQLite のファイルです（毎日の実行には --kind systemd を、"
        "または --database-url postgresql://... を使ってください）。",
    "{file} cannot be read as the service's key file ({why}); nothing was written.":
        "{file} をサービスの鍵ファイルとして読めません（{why}）。何も書き込んでいません。",
    "{file} holds the service's API key but other accounts may read it (or it is not yours). "
    "Run: chmod 600 {file}; nothing was written.":
        "{file} にはサービスの API キーが入っていますが、ほかのアカウントが読める状態です"
        "（またはあなたのファイルではありません）。chmod 600 {file} を実行してください。"
        "何も書き込んでいません。",
    "the name does not match": "名前が一致しません",
    "outside its dates": "有効期間の外です",
    "signed by an unknown CA": "知らない CA の署名です",
    "The database server {where} does not let this device in: its pg_hba.conf has no line "
    "for the address {address} (with this user, database and encryption). Add one as the "
    "server's administrator (docs/postgresql.md, step 5), reload the server and try again.":
        "データベースサーバー {where} がこの端末を受け入れません。pg_hba.conf にアドレス "
        "{address} の行（このユーザー、データベース、暗号化で）がありません。サーバーの管理者"
        "として追加し（docs/postgresql.md の手順 5）、サーバーを再読み込みしてから、もう一度"
        "試してください。",
    "The database server {where} showed a certificate this device does not trust for that "
    "name ({detail}). Check sslrootcert (the CA that signed the server's certificate) and "
    "that the URL's host is a name in the certificate (docs/postgresql.md, step 6).":
        "データベースサーバー {where} の証明書を、この端末はその名前では信頼できません"
        "（{detail}）。sslrootcert（サーバーの証明書に署名した CA）と、URL のホストが証明書に"
        "ある名前かどうかを確かめてください（docs/postgresql.md の手順 6）。",
    "The CA certificate that sslmode=verify-full needs is not on this device (by default "
    "~/.postgresql/root.crt, or the URL's sslrootcert=...) for {where} (docs/postgresql.md, "
    "step 6).":
        "{where} への sslmode=verify-full に必要な CA 証明書がこの端末にありません（既定は "
        "~/.postgresql/root.crt、または URL の sslrootcert=...）（docs/postgresql.md の手順 6）。",
    "The database server {where} does not offer TLS, and the URL asks for it. Turn ssl on in "
    "its postgresql.conf (docs/postgresql.md, step 6).":
        "データベースサーバー {where} は TLS を提供していませんが、URL が求めています。"
        "postgresql.conf で ssl を on にしてください（docs/postgresql.md の手順 6）。",
    "The database URL holds a password; a service unit is a file others may read. Put the "
    "password in ~/.pgpass (host:port:database:user:password, mode 600) and give the URL without "
    "it. Nothing was written.":
        "データベースの URL にパスワードが入っています。"
        "サービスのユニットはほかの人も読めるファイルです。"
        "パスワードは ~/.pgpass（host:port:database:user:password、モード 600）に書き、"
        "URL はパスワードなしで指定してください。何も書き込んでいません。",
    "crontab is not available here; add this line by hand:\n{line}":
        "ここでは crontab が使えません。次の行を手で追加してください:\n{line}",
    "{home} is not empty and is not the demo's folder (it may hold a MONET history, settings or a "
    "core prompt); the demo never touches a real data folder. Give --home an empty or new folder, "
    "or leave it out.":
        "{home} は空ではなく、デモのフォルダーでもありません（MONET の履歴、設定、"
        "コアプロンプトがあるかもしれません）。"
        "デモが本物のデータフォルダーに触れることはありません。"
        "--home には空のフォルダーか新しいフォルダーを指定するか、省いてください。",
    # ----- check-mixing (monet_app/mixing)
    "--standin chooses the built-in stand-in's answers; with --live Claude answers. Use one of "
    "them.":
        "--standin は内蔵の代役の答え方を選ぶもので、--live では Claude が答えます。"
        "どちらか一方を使ってください。",
    "Cannot read the pinned instructions {core_prompt} ({kind}).":
        "固定の指示 {core_prompt} を読めません（{kind}）。",
    "check-mixing --live spends money (about ${dollars:.2f}) and asks first, but the input is not "
    "a terminal: add --yes to go ahead.":
        "check-mixing --live は費用がかかるため（約 ${dollars:.2f}）先に確認しますが、"
        "入力が端末ではありません。進めるには --yes を付けてください。",
    "check-mixing --live needs an Anthropic API key (ANTHROPIC_API_KEY or the one saved in "
    "MONET's settings); without --live it runs against the built-in stand-in, which checks the "
    "path, not Claude.":
        "check-mixing --live には Anthropic の API キー（ANTHROPIC_API_KEY か MONET "
        "の設定に保存したもの）が必要です。"
        "--live なしでは内蔵の代役を相手に実行し、確かめるのは処理の経路で、"
        "Claude ではありません。",
    "The stand-in answers {modes} (got {standin!r}).":
        "代役の答え方は {modes} です（指定: {standin!r}）。",
    "The grader asks Claude for a second opinion: it needs --live.":
        "採点者は Claude にセカンドオピニオンを求めるため、--live が必要です。",
    "--model needs a model name.":
        "--model にはモデル名が必要です。",
    "The pinned instructions to try are empty.":
        "試す固定の指示が空です。",
    "No built-in mixed day {unknown}; there are {known}.":
        "内蔵の「混ざった一日」に {unknown} はありません。あるのは {known} です。",
    "The check was stopped; nothing was reported.":
        "チェックを止めました。結果は出していません。",
    "The check was stopped; nothing was reported (what it spent is in the usage ledger).":
        "チェックを止めました。結果は出していません（使った分は利用記録にあります）。",
    # ----- moving a history (monet_app/operations/moving.py)
    "migrate-to needs a target: postgresql://user@host:5432/db or a folder; nothing was copied.":
        "migrate-to には移し先が必要です: postgresql://user@host:5432/db かフォルダー。"
        "何もコピーしていません。",
    "MONET moves a history only to a PostgreSQL server (postgresql://user@host:5432/db) or to a "
    "folder, and {target} is neither (a folder whose name has a colon: start it with ./); nothing "
    "was copied.":
        "MONET が履歴を移せるのは PostgreSQL サーバー（postgresql://user@host:5432/db）"
        "かフォルダーだけで、{target} はどちらでもありません（名前にコロンを含むフォルダーなら ./ "
        "から始めてください）。何もコピーしていません。",
    "{there} is a file, not a folder; migrate-to copies the history into a folder (a new data "
    "folder). Nothing was copied.":
        "{there} はフォルダーではなくファイルです。"
        "migrate-to は履歴をフォルダー（新しいデータフォルダー）にコピーします。"
        "何もコピーしていません。",
    "--switch with a folder works only when the folder is this data folder (--home); the copy in "
    "{folder} is its own data folder (open it with --home {folder}). Nothing was copied.":
        "フォルダーへの --switch は、そのフォルダーがこのデータフォルダー（--home）"
        "のときだけ使えます。{folder} のコピーはそれ自体が一つのデータフォルダーです（--home "
        "{folder} で開いてください）。何もコピーしていません。",
    "{shown} names no server or no database; give both, as in postgresql://user@host:5432/monet. "
    "Nothing was copied.":
        "{shown} にはサーバーかデータベースの指定がありません。"
        "postgresql://user@host:5432/monet のように両方を指定してください。"
        "何もコピーしていません。",
    "No OS keyring is available here to keep the password of {shown}, and MONET never writes it "
    "into device.json: put it in ~/.pgpass (host:port:database:user:password, mode 0600), or with "
    "`monet server-password` where a keyring exists, and give the URL without it. Nothing was "
    "copied.":
        "ここには {shown} のパスワードを保存できる OS のキーリングがなく、"
        "MONET がパスワードを device.json に書くことはありません。"
        "~/.pgpass（host:port:database:user:password、モード 0600）に書くか、"
        "キーリングのある環境で `monet server-password` を使い、"
        "URL はパスワードなしで指定してください。何もコピーしていません。",
    "The history is already on that server; nothing was copied.":
        "履歴はすでにそのサーバーにあります。何もコピーしていません。",
    "{shown} is not a database URL MONET can read (postgresql://user@host:5432/db); nothing was "
    "copied.":
        "{shown} は MONET が読めるデータベースの URL ではありません（postgresql://user@host:"
        "5432/db）。何もコピーしていません。",
    "The history was copied to {where} and checked, but this device was not switched to it: {exc} "
    "Keep the password with `monet server-password --database-url {device_url}` or in ~/.pgpass, "
    "then name {device_url} in device.json.":
        "履歴は {where} にコピーして確認しましたが、"
        "この端末の切り替えはしていません: {exc} パスワードを `monet server-password "
        "--database-url {device_url}` か ~/.pgpass で保存してから、"
        "device.json に {device_url} を書いてください。",
    # ----- backups and restores (monet_app/services/backup.py)
    "{target} is one of the data folder's own files; a backup never replaces them. Nothing was "
    "written: choose another file (a .zip outside the data folder, or its backups folder).":
        "{target} はデータフォルダー自身のファイルです。"
        "バックアップがそれを置き換えることはありません。何も書き込んでいません。"
        "別のファイル（データフォルダーの外か、その backups フォルダーの .zip）を選んでください。",
    "There is no MONET database in {home}; nothing was backed up.":
        "{home} には MONET のデータベースがありません。何もバックアップしていません。",
    "{archive} would expand {ratio:,.0f} times ({size:,} bytes); a MONET backup never does. "
    "Nothing was restored.":
        "{archive} は展開すると {ratio:,.0f} 倍（{size:,} バイト）になります。"
        "MONET のバックアップではありえません。何も復元していません。",
    "{archive} needs {needed:,.0f} MB free beside the data folder; {free:,.0f} MB are. Nothing "
    "was restored.":
        "{archive} にはデータフォルダーのある場所に {needed:,.0f} MB の空きが必要ですが、"
        "{free:,.0f} MB しかありません。何も復元していません。",
    "The database in {archive} failed SQLite's integrity check ({verdict}); nothing was restored.":
        "{archive} のデータベースが SQLite の整合性チェックに通りませんでした（{verdict}）。"
        "何も復元していません。",
    "{archive} does not exist or is not a file.":
        "{archive} がないか、ファイルではありません。",
    "{home} already holds a MONET database; nothing was changed. Add --force to replace it (the "
    "current one is kept beside it as a dated copy).":
        "{home} にはすでに MONET のデータベースがあります。何も変更していません。"
        "置き換えるには --force を付けてください（今のデータベースは日付付きのコピーとして隣に残し"
        "ます）。",
    "{archive} could not be rewritten without the forgotten messages ({verdict}); it was left as "
    "it was.":
        "{archive} を、忘れたメッセージを除いて書き直せませんでした（{verdict}）。"
        "元のまま残してあります。",
    "The database in {home} failed SQLite's integrity check ({verdict}); the backup was not "
    "written. Keep your older backups.":
        "{home} のデータベースが SQLite の整合性チェックに通りませんでした（{verdict}）。"
        "バックアップは書き込んでいません。以前のバックアップを残しておいてください。",
    "{archive} cannot be read as a MONET backup ({exc}).":
        "{archive} は MONET のバックアップとして読めません（{exc}）。",
    "{archive} is damaged: {name} does not match its checksum.":
        "{archive} は壊れています: {name} がチェックサムと一致しません。",
    "{archive} holds {name} with other bytes than its name says; refused, nothing was restored.":
        "{archive} の {name} は、名前が示すのと違う中身です。受け付けず、何も復元していません。",
    "The restored database failed SQLite's integrity check ({verdict}); the replaced one is kept "
    "as {kept}.":
        "復元したデータベースが SQLite の整合性チェックに通りませんでした（{verdict}）。"
        "置き換えたデータベースは {kept} として残してあります。",
    "The backup's database failed SQLite's integrity check ({verdict}); nothing was changed.":
        "バックアップのデータベースが SQLite の整合性チェックに通りませんでした（{verdict}）。"
        "何も変更していません。",
    "The database in {home} could not be read for a backup ({exc}); nothing was written.":
        "バックアップのために {home} のデータベースを読めませんでした（{exc}）。"
        "何も書き込んでいません。",
    "{archive} is not a MONET backup (no manifest or database).":
        "{archive} は MONET のバックアップではありません（目録かデータベースがありません）。",
    "{archive} has a manifest MONET cannot read; refused.":
        "{archive} の目録を MONET は読めません。受け付けませんでした。",
    "{archive} holds an unexpected file {name!r}; refused.":
        "{archive} に予期しないファイル {name!r} があります。受け付けませんでした。",
    "MONET is using {home} right now (a window, monet librarian or a replay); nothing was "
    "changed. Close it and restore again, or restore from the window's MONET menu, which lets go "
    "of the database first.":
        "MONET が今 {home} を使っています（ウィンドウ、monet librarian、またはリプレイ）。"
        "何も変更していません。それを閉じてからもう一度復元するか、"
        "ウィンドウの MONET メニューから復元してください（先にデータベースを手放してから復元します"
        "）。",
    # ----- the gate (monet_app/services/gate.py; the window says most of these by code)
    "Wait for the reply to finish (or press Stop).":
        "返信が終わるまでお待ちください（または停止を押してください）。",
    "Wait until the deletion is finished.":
        "削除が終わるまでお待ちください。",
    "Wait until the settings are applied.":
        "設定の反映が終わるまでお待ちください。",
    "Wait until the restore is finished.":
        "復元が終わるまでお待ちください。",
    "Wait for the reply to finish before deleting.":
        "返答が終わってから削除してください。",
    "Wait for the reply to finish (or press Stop) before changing settings.":
        "返答が終わるまで（または停止を押してから）設定を変えてください。",
    "A librarian pass is already running.":
        "ライブラリアンがすでに実行中です。",
    "A backup is already being made.":
        "バックアップをすでに作成中です。",
    "Wait for the reply or the deletion to finish first.":
        "返答か削除が終わるまでお待ちください。",
    "A restore is already under way.":
        "復元をすでに実行中です。",
    # ----- replaying a trace (monet_app/services/replay.py)
    "{path}:{number}: 'attachments' must be a list of file paths.":
        "{path}:{number}: 'attachments' はファイルのパスのリストにしてください。",
    "{path}:{number}: {key!r} must be text (missing).":
        "{path}:{number}: {key!r} はテキストにしてください（ありません）。",
    "{path}:{number}: {key!r} must be text ({got}).":
        "{path}:{number}: {key!r} はテキストにしてください（{got} です）。",
    "{path}:{number}: {key!r} must be a name (missing).":
        "{path}:{number}: {key!r} は名前にしてください（ありません）。",
    "{path}:{number}: {key!r} must be a name ({got}).":
        "{path}:{number}: {key!r} は名前にしてください（{got} です）。",
    "{where}: a trace line is a JSON object.":
        "{where}: トレースの行は JSON のオブジェクトにしてください。",
    "{where}: 'ts' must be an ISO 8601 time with its offset.":
        "{where}: 'ts' は時差付きの ISO 8601 の時刻にしてください。",
    "{where}: {ts} is outside the years {first}-{last} a trace may name.":
        "{where}: {ts} は、トレースで使える {first}～{last} 年の範囲外です。",
    "{where}: a turn needs 'tab' and 'user'.":
        "{where}: 発言には 'tab' と 'user' が必要です。",
    "No trace file at {path}.":
        "{path} にトレースのファイルがありません。",
    "{path} is not a file (a folder, a device, a pipe?).":
        "{path} はファイルではありません（フォルダー、デバイス、パイプ？）。",
    "{path}:{number}: the attachment {name} is outside the trace's folder {folder}; a trace "
    "attaches only files beside it.":
        "{path}:{number}: 添付ファイル {name} がトレースのフォルダー {folder} の外にあります。"
        "トレースが添付できるのは同じフォルダーにあるファイルだけです。",
    "{where}: not a trace line ({exc}).":
        "{where}: トレースの行ではありません（{exc}）。",
    "{where}: unknown action {action!r} (known: {known}).":
        "{where}: 動作 {action!r} はありません（あるのは {known}）。",
    "Another replay is writing into {home} right now; nothing was stored. Wait for it to end (a "
    "replay that follows it continues where it stopped).":
        "別のリプレイが今 {home} に書き込んでいます。何も保存していません。"
        "終わるまでお待ちください（あとから実行するリプレイは、止まったところから続けます）。",
    "{trace}:{number}: this turn differs from what {home} holds at that point (the home continued "
    "another way). Replay this trace on a new --home.":
        "{trace}:{number}: この発言は、"
        "その時点で {home} にあるものと違います（データフォルダーが別の形で続いています）。"
        "このトレースは新しい --home でリプレイしてください。",
    "{path}:{number}: cannot read the attachment {name} ({reason}).":
        "{path}:{number}: 添付ファイル {name} を読めません（{reason}）。",
    "{path}:{number}: {exc}":
        "{path}:{number}: {exc}",
    "{path}:{number}: a line longer than {megabytes} MB; refused, nothing was stored.":
        "{path}:{number}: {megabytes} MB を超える行です。受け付けず、何も保存していません。",
    "{where}: open_day needs a 'date' (YYYY-MM-DD), not {date!r}.":
        "{where}: open_day には 'date'（YYYY-MM-DD）が必要です。{date!r} は使えません。",
    "{path}:{number}: not UTF-8 text (byte {byte} of the line).":
        "{path}:{number}: UTF-8 のテキストではありません（行の {byte} バイト目）。",
    "{path}:{number}: not a trace line ({exc}).":
        "{path}:{number}: トレースの行ではありません（{exc}）。",
    "{trace}:{number}: unknown action {action!r}.":
        "{trace}:{number}: 動作 {action!r} はありません。",
}


def _value(value: object, language: str) -> object:
    """A value as the sentence in ``language`` shows it: an error or a phrase inside it is
    said in that language too; anything else (a path, a count, a driver's text) as is."""
    if isinstance(value, UserFacingError | Phrase):
        return say(value, language)
    if isinstance(value, Phrases):
        separator = JA_SEPARATOR if language == "ja" else value.separator
        return separator.join(say(phrase, language) for phrase in value.phrases)
    return value


def say(error: UserFacingError | Phrase, language: str) -> str:
    """``error`` in ``language`` ("ja", "en"): for "ja", the catalog's Japanese of its
    template filled with its values, when the catalog has it; else ``str(error)``, the
    English sentence (what the command line prints and ``monet.log`` keeps)."""
    template = getattr(error, "template", None)
    if language != "ja" or not isinstance(template, str) or template not in JA:
        return str(error)
    values: dict[str, object] = getattr(error, "values", {})
    return formatted(JA[template], {name: _value(value, language)
                                    for name, value in values.items()})
