"""Fill monet_ja.ts with the Japanese UI text, then compile it:

    python assets/i18n/translate_ja.py && pyside6-lrelease assets/i18n/monet_ja.ts

Run ``pyside6-lupdate -no-obsolete ui/*.py monet_app/app.py -ts assets/i18n/monet_ja.ts`` first when
UI strings change; a source without an entry here is reported and left unfinished.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

JA = {
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
    "You asked": "覚えてと頼まれた",
    "Fact": "事実",
    "About you": "あなたについて",
    "Claude forgets it; the messages it came from stay in your history, hidden from Claude.":
        "Claude はこれを忘れます。元のメッセージは履歴に残り、Claude からは見えなくなります。",
    "Forget and delete its messages…": "忘れて元のメッセージも削除…",
    "Delete messages": "メッセージの削除",
    "Forget this item and delete the messages it came from (and Claude's replies to them) from your history? This cannot be undone.":
        "この項目を忘れ、元になったメッセージ（と Claude の返答）を履歴から削除しますか？ 元に戻せません。",
    "(forgotten: Claude no longer sees this)": "（忘れた内容: Claude にはもう見えません）",
    " (contradiction: please check)": "（矛盾あり・確認してください）",
    "Nothing is remembered yet.": "まだ何も覚えていません。",
    "From: {source}": "出典: {source}",
    "Delete this day…": "この日を削除…",
    "Delete everything said on {day}? Claude will not see it again.":
        "{day} の会話をすべて削除しますか？ Claude がこれを見ることはもうありません。",
    "Delete this message…": "このメッセージを削除…",
    "Delete this message and what was drawn from it?": "このメッセージと、そこから作られた要約・記憶を削除しますか？",
    "Wait for the reply to finish before deleting.": "返答が終わってから削除してください。",
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
