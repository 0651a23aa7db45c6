"""A year-size MONET home, made by a script, and the issue 13 figures measured on it.

    python benchmarks/year_home.py make DIR [--days 365] [--messages 100000] [--seed 1]
                                            [--today-messages 60] [--end-day YYYY-MM-DD]
    python benchmarks/year_home.py measure DIR [--runs 20] [--cold-runs 5] [--database-url URL]
    python benchmarks/year_home.py measure DIR --profile NAME
        (NAME: open_day, timeline, search, request, cold or window)

``make`` writes a new home in DIR (refused if DIR already holds a database; ``--force``
replaces it) as a year of daily use would have left it, without a model: one day thread
per day ending today (by the system clock, or ``--end-day``), messages alternating person /
Claude over the four default tabs (チャット / リサーチ / 仕事 / ソーシャル), Japanese and
English sentences built from word lists (20-600 characters, some Markdown and code, rare
words for search, about 1% search_history tool rounds), each with its token estimate
counted by MONET's own tiktoken estimator (exact, not len/3). Every day is folded as MONET
folds it: ceiling folds while the day goes on (the real thresholds of the default
settings), the sunset fold of what is left at the next day's first message, segments cut by
the real ``cut_segments``, one summarized Timeline Index line per segment (the offline
summarizer's line), and after each fold the real ``render_timeline`` with the TI budget,
which writes the day / week / month roll-ups exactly as the app does at that rebuild. The
rows a year leaves beside them are there too: usage ledger, events, presummaries, daily
context summaries, memory items. Today holds ``--today-messages`` raw messages; the prompt
state is then made by the real ``ContextManager.prepare_request``. Everything goes in
through SQLAlchemy Core ``executemany`` in one transaction; the FTS5 trigram index is kept
by its triggers (migration 0006). Nothing is committed as data: the home is made anew.

``measure`` prints, against issue 13's targets (each p95 of ``--runs`` runs must be at most
50 ms; RSS at most 300 MB; cold start median at most 1.0 s): opening a past day
(``Navigator.open_day`` + ``rows()``), the Timeline Index (the window's pane
``Navigator.timeline()``, ``timeline_entries()`` + ``timeline_now()``, and the rebuild's
``ContextManager._render`` in a rolled-back transaction), search
(``monet_app.operations.search.search``) for common, rare, 2- and 3-character Japanese terms
and questions, ``prepare_request`` for a turn today (on a copy of the home: a message is
committed first), the resident memory of this process and of the window after the same
work, and the cold start of a fresh process to a painted window (``QT_QPA_PLATFORM=offscreen``,
as ``benchmarks/gui_paint.py --cold-start``). The clock is fixed two minutes after the
home's newest message, so the figures do not depend on the day they are taken. Measuring
adds what using the window adds (a few ``open_day`` and ``app_started`` events) to DIR.
With ``--database-url`` (or the home's device.json / ``MONET_DATABASE_URL``) the history
measured is the one on that PostgreSQL server, put there by ``monet migrate-to URL --home
DIR``; the writing measurements then run on a database made from it as a template.
``--profile`` runs one of them under cProfile and prints the 25 most cumulative functions
(``cold``: the child process from its first import to the painted window; ``window``: the
window's open-day, Timeline Index and search work in that child).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import create_engine, func, insert, select, text
from sqlmodel import Session

from cms.clock import ManualClock, day_of, parse_ts
from cms.context import timeline
from cms.context.prompt import user_turn_text
from cms.context.tools import recall
from cms.settings import DEFAULT_TABS, Settings
from cms.summaries import OfflineSummarizer, Turn
from cms.tokens import TiktokenEstimator, count_json
from storage import Database
from storage.models import (
    ContextSummary,
    Event,
    Fold,
    MemoryItem,
    Message,
    Presummary,
    PromptState,
    Segment,
    Setting,
    Thread,
    TimelineEntry,
    UsageRecord,
)
from storage.where import URL_ENV, database_url

# ----- targets (issue 13) -------------------------------------------------------------
TARGET_MS = 50.0
TARGET_RSS_MB = 300.0
TARGET_COLD_MS = 1000.0

# ----- word lists ---------------------------------------------------------------------
JA = {
    "when": ["今朝", "昨日", "今日のお昼", "夕方", "先週末", "さっき", "夜遅く", "月曜日"],
    "place": ["京都", "大阪", "鎌倉", "横浜", "札幌", "渋谷", "近所の公園", "図書館",
              "美術館", "海辺", "駅前のカフェ", "実家", "福岡", "名古屋"],
    "food": ["ラーメン", "寿司", "カレー", "味噌汁", "天ぷら", "そば", "うどん", "焼き鳥",
             "おにぎり", "パスタ", "餃子", "ハンバーグ", "抹茶のケーキ", "親子丼"],
    "activity": ["散歩", "料理", "読書", "映画鑑賞", "ジョギング", "掃除", "昼寝", "買い物",
                 "自転車の手入れ", "ヨガ", "ピアノの練習", "写真の整理"],
    "weather": ["雨", "晴れ", "曇り", "雪", "強い風", "蒸し暑い天気"],
    "topic": ["機械学習", "統計", "量子計算", "江戸時代の歴史", "言語学", "神経科学",
              "気候変動", "半導体", "暗号理論", "睡眠の研究", "経済学", "天文学"],
    "concept": ["過学習", "ベイズ推定", "因果推論", "再現性", "サンプルサイズ", "交差検証",
                "注意機構", "誤差逆伝播", "信頼区間", "仮説検定"],
    "meeting": ["定例会議", "企画会議", "顧客との打ち合わせ", "一対一の面談", "振り返り会"],
    "project": ["新しいアプリ", "社内ツール", "決済システム", "ウェブサイトの改修",
                "データ基盤", "採用ページ"],
    "bug": ["メモリリーク", "文字化け", "タイムアウト", "二重送信", "表示崩れ"],
    "doc": ["設計書", "提案書", "仕様書", "議事録", "見積書"],
    "person": ["田中", "佐藤", "鈴木", "高橋", "母", "兄", "妹", "友達の由美", "先輩",
               "同僚の健太"],
    "gift": ["花束", "手帳", "マグカップ", "お菓子の詰め合わせ", "本", "腕時計"],
    "event": ["飲み会", "誕生日会", "結婚式", "同窓会", "花見", "忘年会", "旅行"],
}
JA_USER = {
    "chat": [
        "{when}、{place}で{food}を食べました。", "{food}が食べたい気分です。",
        "今日は{weather}だったので{activity}をしました。", "{activity}を{n}分くらいしました。",
        "週末は{place}に行こうか迷っています。", "最近{activity}にはまっています。",
        "{food}の美味しいお店を知っていますか？", "{when}は{weather}でした。",
        "{place}の{food}、また食べに行きたいです。",
    ],
    "research": [
        "{topic}について調べています。", "{topic}の論文を{n}本読みました。",
        "{concept}と{concept}の違いを教えてください。", "{topic}で{concept}はどういう意味ですか？",
        "実験の結果、精度が{n}%改善しました。", "{topic}の入門書でおすすめはありますか？",
    ],
    "work": [
        "{when}の{meeting}の資料を作っています。", "{project}の締め切りが{n}日後です。",
        "{project}で{bug}が見つかりました。", "{person}さんに{doc}のレビューを頼みました。",
        "見積もりは{n}万円くらいになりそうです。", "{meeting}が長引いて疲れました。",
    ],
    "social": [
        "{person}の誕生日に{gift}を贈ろうと思います。", "{when}、{person}と{place}で会いました。",
        "{event}の幹事を頼まれました。", "{person}から{n}年ぶりに連絡がありました。",
        "{event}は{place}でやることになりました。",
    ],
}
JA_ASSISTANT = [
    "いいですね。", "{place}なら{food}が有名です。", "ポイントは{n}つあります。",
    "まず{concept}を確認しましょう。", "{topic}は奥の深いテーマです。",
    "{person}さんもきっと喜ぶと思います。", "無理のない範囲で{activity}を続けてみてください。",
    "{doc}は先に目次を決めると書きやすくなります。", "{bug}なら、まずログを確認するのが近道です。",
    "{weather}の日は{activity}もいい気分転換になります。",
    "予算は{n}万円を目安に考えるとよいでしょう。",
    "{event}の日程は早めに決めておくと安心です。", "なるほど、それは大変でしたね。",
]
EN = {
    "when": ["this morning", "yesterday", "at lunch", "last weekend", "on Monday", "tonight"],
    "place": ["Kyoto", "Osaka", "the park", "the library", "the museum", "a small cafe",
              "the beach", "my parents' house", "Berlin", "the office"],
    "food": ["ramen", "sushi", "curry", "pasta", "dumplings", "a burger", "pancakes", "tacos"],
    "activity": ["running", "cooking", "reading", "cycling", "cleaning", "hiking", "yoga",
                 "fixing my bike", "practising piano", "sorting photos"],
    "topic": ["machine learning", "statistics", "quantum computing", "linguistics",
              "climate science", "cryptography", "sleep research", "economics", "astronomy"],
    "concept": ["overfitting", "Bayesian inference", "causal inference", "reproducibility",
                "sample size", "cross-validation", "attention", "backpropagation"],
    "meeting": ["weekly meeting", "planning meeting", "client meeting", "one-on-one",
                "retrospective"],
    "project": ["the new app", "the internal tool", "the payment system", "the website",
                "the data pipeline"],
    "bug": ["memory leak", "encoding bug", "timeout", "race condition", "layout glitch"],
    "doc": ["design doc", "proposal", "spec", "meeting notes", "estimate"],
    "person": ["Tanaka", "my sister", "my brother", "Alex", "Maria", "my manager", "a friend"],
    "gift": ["flowers", "a notebook", "a mug", "a box of sweets", "a book", "a watch"],
    "event": ["birthday party", "wedding", "reunion", "dinner", "trip", "year-end party"],
}
EN_USER = {
    "chat": [
        "I had {food} at {place} {when}.", "I went {activity} {when}, about {n} minutes.",
        "Thinking about going to {place} this weekend.", "I own {n} bikes now, is that too many?",
        "Do you know a good place for {food}?", "I've been really into {activity} lately.",
    ],
    "research": [
        "I'm reading about {topic}.", "I read {n} papers on {topic} this week.",
        "What is the difference between {concept} and {concept}?",
        "Can you explain {concept} in {topic}?", "The experiment improved accuracy by {n}%.",
    ],
    "work": [
        "Preparing slides for the {meeting}.", "The deadline for {project} is in {n} days.",
        "Found a {bug} in {project}.", "I asked {person} to review the {doc}.",
        "The {meeting} ran {n} minutes over again.", "The estimate is about {n} thousand dollars.",
    ],
    "social": [
        "I want to get {gift} for {person}'s birthday.", "Met {person} at {place} {when}.",
        "I was asked to organise the {event}.", "{person} called after {n} years.",
    ],
}
EN_ASSISTANT = [
    "That sounds great.", "In {place}, {food} is the thing to try.", "There are {n} points here.",
    "Let's start by checking {concept}.", "{topic} is a deep subject, so take it step by step.",
    "{person} will probably love it.", "Keep up the {activity} at a pace that feels easy.",
    "For a {bug}, the logs are the fastest way in.", "A budget of about {n} is a fair start.",
    "Fix the date of the {event} early and the rest follows.", "That must have been tiring.",
    "A short outline first makes the {doc} much easier to write.",
]
#: Rare words, each in a handful of messages over the year (search's low-hit cases).
RARE = ["鰻丼", "縄跳び", "金平糖", "盆栽", "甲冑", "蓄音機", "万華鏡", "琵琶湖", "屋久島",
        "流鏑馬", "zeppelin", "xylophone", "quokka", "marzipan", "theremin", "sextant",
        "kumquat", "narwhal", "bagpipe", "origami"]
RARE_RATE = 0.004
TOOL_RATE = 0.01
CODE = ("```python\ndef total(items):\n    return sum(item.price * item.count for item in items)"
        "\n```")

#: Search queries: (label, query).
QUERIES = [
    ("common word", "meeting"),
    ("rare word", "zeppelin"),
    ("ja 2-char, common", "京都"),
    ("ja 2-char, rare", "盆栽"),
    ("ja 3-char", "美術館"),
    ("two words", "京都 ラーメン"),
    ("question (en)", "How many bikes do I own?"),
    ("question (ja)", "京都で食べたラーメンの店はどこ？"),
]
#: Claude's ``search_history`` (``cms.context.tools.recall``): English through the trigram
#: index, Japanese through the bigram index.
RECALLS = [
    ("question (en)", "What did I say about the museum trip?"),
    ("question (ja)", "京都で食べたラーメンの店はどこ？"),
    ("question (ja, kana)", "ぼんさいの話してたっけ"),
]
TAB_WEIGHTS = {"chat": 40, "research": 20, "work": 25, "social": 15}
SUMMARY_MODEL = "claude-haiku-4-5"
CHAT_MODEL = "claude-sonnet-4-6"


# ----- text ---------------------------------------------------------------------------
class Talk:
    """Sentences from the word lists: varied, mixed Japanese and English, realistic lengths."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def _fill(self, template: str, words: dict[str, list[str]]) -> str:
        rng = self.rng
        out = template
        while "{" in out:
            start = out.index("{")
            end = out.index("}", start)
            key = out[start + 1 : end]
            value = str(rng.randint(2, 120)) if key == "n" else rng.choice(words[key])
            out = out[:start] + value + out[end + 1 :]
        return out

    def message(self, role: str, tab: str, lang: str) -> str:
        rng = self.rng
        if role == "user":
            target = min(300, 20 + int(rng.expovariate(1 / 70)))
        else:
            target = min(600, 80 + int(rng.expovariate(1 / 250)))
        words = JA if lang == "ja" else EN
        pool = (JA_USER if lang == "ja" else EN_USER)[tab] if role == "user" else (
            JA_ASSISTANT if lang == "ja" else EN_ASSISTANT)
        sep = "" if lang == "ja" else " "
        parts: list[str] = []
        size = 0
        while size < target:
            if role == "assistant" and parts and rng.random() < 0.08:
                piece = "\n\n" + "\n".join(
                    "- " + self._fill(rng.choice(pool), words) for _ in range(rng.randint(2, 4))
                ) + "\n\n"
            elif role == "assistant" and tab == "work" and parts and rng.random() < 0.04:
                piece = "\n\n" + CODE + "\n\n"
            else:
                piece = self._fill(rng.choice(pool), words)
            parts.append(piece)
            size += len(piece) + len(sep)
        if rng.random() < RARE_RATE:  # about 20 messages a year for each rare word
            rare = rng.choice(RARE)
            parts.insert(rng.randint(0, len(parts)), f"ところで{rare}の話、覚えていますか。"
                         if lang == "ja" else f"By the way, remember the {rare}?")
        out = sep.join(parts).strip()
        if len(out) > 600:
            out = out[:600].rstrip()
        if len(out) < 20:
            out += sep + self._fill(rng.choice(pool), words)
        return out

    def tool_round(self, query: str, when: str) -> tuple[str, str]:
        """(text, content_json) of one search_history round."""
        found = [
            {"day": when, "tab": "chat", "time": f"{self.rng.randint(8, 22):02d}:"
             f"{self.rng.randint(0, 59):02d}", "role": "user",
             "text": self.message("user", "chat", "ja")}
            for _ in range(self.rng.randint(1, 5))
        ]
        output = json.dumps({"query": query, "results": found}, ensure_ascii=False)
        tool_id = f"toolu_{self.rng.getrandbits(64):016x}"
        content = {
            "call": [{"type": "tool_use", "id": tool_id, "name": "search_history",
                      "input": {"query": query}}],
            "result": [{"type": "tool_result", "tool_use_id": tool_id, "content": output}],
        }
        return output, json.dumps(content, ensure_ascii=False)


# ----- the generator ------------------------------------------------------------------
@dataclass
class Msg:
    """A message before it is stored (duck-typed for ``cut_segments`` and the summarizer)."""

    id: int
    thread_id: int
    day: str
    tab: str
    tab_label: str
    role: str
    text: str
    ts: str
    token_estimate: int
    content_json: str | None = None
    segment_id: int | None = None

    def row(self) -> dict[str, Any]:
        return {
            "id": self.id, "thread_id": self.thread_id, "day": self.day, "tab": self.tab,
            "tab_label": self.tab_label, "role": self.role, "text": self.text,
            "content_json": self.content_json, "ts": self.ts,
            "token_estimate": self.token_estimate, "status": "complete",
            "segment_id": self.segment_id, "hidden": False,
        }


class YearMaker:
    def __init__(self, home: Path, days: int, messages: int, seed: int, today_messages: int,
                 end_day: date, now: datetime) -> None:
        self.home = home
        self.rng = random.Random(seed)
        self.talk = Talk(self.rng)
        self.settings = Settings()
        self.estimator = TiktokenEstimator()
        self.summarizer = OfflineSummarizer()
        self.labels = dict(DEFAULT_TABS)
        self.days = [(end_day - timedelta(days=days - 1 - i)).isoformat() for i in range(days)]
        self.now = now
        self.total = messages
        self.today_messages = min(today_messages, messages)
        self.next_msg = self.next_seg = self.next_fold = 1
        self.counts: Counter[str] = Counter()
        self.timings: dict[str, float] = Counter()
        self.last_tab = "chat"

    # ----- how many messages each day holds -------------------------------------------
    def day_counts(self) -> list[int]:
        past = len(self.days) - 1
        rest = self.total - self.today_messages
        if past <= 0:
            return [self.total]
        weights = []
        for d in self.days[:-1]:
            weekend = date.fromisoformat(d).weekday() >= 5
            weights.append(self.rng.uniform(0.4, 1.6) * (1.25 if weekend else 1.0))
        scale = rest / sum(weights)
        counts = [max(2, int(w * scale)) for w in weights]
        index = 0
        while sum(counts) != rest:  # spread the rounding over the days
            step = 1 if sum(counts) < rest else -1
            if counts[index % past] + step >= 2:
                counts[index % past] += step
            index += 1
        return [*counts, self.today_messages]

    # ----- one day's talk -------------------------------------------------------------
    def day_talk(self, day: str, count: int, thread_id: int, last_ts: datetime | None) -> list[Msg]:
        rng = self.rng
        plan: list[tuple[str, str, str, float]] = []  # (role, tab, lang, gap seconds)
        left = count
        while left > 0:
            tabs = [t for t in TAB_WEIGHTS if t != self.last_tab or rng.random() < 0.15]
            tab = rng.choices(tabs, [TAB_WEIGHTS[t] for t in tabs])[0]
            self.last_tab = tab
            lang = "ja" if rng.random() < 0.7 else "en"
            run = min(left, 2 * rng.randint(10, 20))
            if 0 < left - run < 4:
                run = left
            left -= run
            pause = rng.uniform(35 * 60, 150 * 60) if plan else 0.0
            i = 0
            while i < run:
                gap = pause if i == 0 else rng.uniform(60, 300)
                plan.append(("user", tab, lang, gap))
                i += 1
                if i < run and run - i != 2 and rng.random() < TOOL_RATE:
                    plan.append(("tool", tab, lang, rng.uniform(3, 10)))
                    i += 1
                if i < run:
                    plan.append(("assistant", tab, lang, rng.uniform(8, 60)))
                    i += 1
        day_start = datetime.combine(date.fromisoformat(day), self.settings.day_start_time,
                                     tzinfo=self.now.tzinfo)
        offsets: list[float] = []
        total = 0.0
        for _role, _tab, _lang, gap in plan:
            total += gap
            offsets.append(total)
        if day == self.days[-1]:  # today: up to two minutes before now
            begin = day_start + timedelta(minutes=5)
            if last_ts is not None and last_ts > begin:
                begin = last_ts + timedelta(minutes=1)
            window = (self.now - timedelta(minutes=2) - begin).total_seconds()
            window = max(window, 1.0)
            scale = min(1.0, window / max(total, 1.0))
            first = begin + timedelta(seconds=window - total * scale)
        else:
            first = day_start + timedelta(hours=rng.uniform(3.0, 5.0))  # 07:00-09:00
            window = 23.5 * 3600 - (first - day_start).total_seconds()  # until 03:30
            scale = min(1.0, window / max(total, 1.0))
        out: list[Msg] = []
        for (role, tab, lang, _gap), offset in zip(plan, offsets, strict=True):
            moment = first + timedelta(seconds=offset * scale)
            ts = moment.isoformat(timespec="seconds")
            label = self.labels[tab]
            content = None
            if role == "tool":
                text_, content = self.talk.tool_round(
                    rng.choice(["京都", "ramen", "会議", "birthday", "論文"]), day)
                tokens = count_json(self.estimator, json.loads(content))
            else:
                text_ = self.talk.message(role, tab, lang)
                shown = user_turn_text(label, ts, text_) if role == "user" else text_
                tokens = self.estimator.count(shown)
            out.append(Msg(self.next_msg, thread_id, day, tab, label, role, text_, ts, tokens,
                           content))
            self.next_msg += 1
        return out

    # ----- folding, as the context manager does ---------------------------------------
    def ceiling_folds(self, talk: list[Msg]) -> list[tuple[str, str, list[Msg]]]:
        """The folds of the day: (kind, created_ts, messages); the raw rest is last, with
        kind "raw". Mirrors ``ContextManager._ceiling_fold`` at each request."""
        s = self.settings
        folds: list[tuple[str, str, list[Msg]]] = []
        raw: list[Msg] = []
        for message in talk:
            raw.append(message)
            if message.role == "assistant":
                continue  # a request goes out after the person's message or a tool round
            exchanges = timeline.group_exchanges(raw)
            count, _left = timeline.ceiling_fold_count(
                [timeline.exchange_tokens(ex) for ex in exchanges],
                s.ceiling_tokens, s.keep_exchanges, s.low_water_tokens)
            if count == 0:
                continue
            folded = [m for ex in exchanges[:count] for m in ex]
            folds.append(("ceiling", message.ts, folded))
            raw = raw[len(folded):]
        folds.append(("raw", "", raw))
        return folds

    def summarize(self, group: Sequence[Msg]) -> str:
        t0 = time.perf_counter()
        line = self.summarizer.summarize([Turn(m.role, m.text) for m in group])
        self.timings["summaries"] += time.perf_counter() - t0
        return " ".join(line.split()) or "（内容なし）"

    def store_fold(self, session: Session, kind: str, day: str, created_ts: str,
                   messages: list[Msg], rows: dict[str, list[dict[str, Any]]]) -> int:
        """One fold: its segments and their summarized TI lines, then the TI rendered (and
        rolled up) as the rebuild after that fold renders it."""
        s = self.settings
        groups = timeline.cut_segments(messages, s.segment_pause_minutes,
                                       s.segment_max_tokens)
        fold_id = self.next_fold
        self.next_fold += 1
        resolved = (parse_ts(created_ts) + timedelta(minutes=2)).isoformat(timespec="seconds")
        conn = session.connection()
        conn.execute(insert(Fold), [{
            "id": fold_id, "kind": kind, "day": day, "thread_id": None,
            "created_ts": created_ts, "segment_count": len(groups), "resolved_ts": resolved,
        }])
        segments, entries, presummaries, usage = [], [], [], []
        for group in groups:
            first, last = group[0], group[-1]
            seg_id = self.next_seg
            self.next_seg += 1
            for m in group:
                m.segment_id = seg_id
            summary = self.summarize(group)
            segments.append({
                "id": seg_id, "thread_id": first.thread_id, "fold_id": fold_id, "day": first.day,
                "tab": first.tab, "first_message_id": first.id, "last_message_id": last.id,
                "start_ts": first.ts, "end_ts": last.ts,
                "tokens": sum(m.token_estimate for m in group),
            })
            written = (parse_ts(last.ts) + timedelta(minutes=35)).isoformat(timespec="seconds")
            entries.append({
                "level": "segment", "segment_id": seg_id, "parent_id": None,
                "day_from": first.day, "day_to": last.day, "start_ts": first.ts,
                "end_ts": last.ts, "tabs": first.tab, "first_message_id": first.id,
                "summary": summary, "summary_source": SUMMARY_MODEL, "summarized_ts": written,
                "attempts": 1, "claimed_by": None, "claimed_until": None, "last_error": None,
            })
            presummaries.append({
                "first_message_id": first.id, "last_message_id": last.id, "summary": summary,
                "source": SUMMARY_MODEL, "created_ts": written,
            })
            tokens = sum(m.token_estimate for m in group)
            usage.append(self.usage_row(written, first.day, "librarian", SUMMARY_MODEL,
                                        tokens + 120, 0, 0, 40))
        conn.execute(insert(Segment), segments)
        rows["message"].extend(m.row() for m in messages)
        self.flush_messages(session, rows)
        conn.execute(insert(TimelineEntry), entries)
        conn.execute(insert(Presummary), presummaries)
        rows["usage"].extend(usage)
        self.counts[f"fold:{kind}"] += 1
        self.counts["segments"] += len(groups)
        last_id = messages[-1].id
        rendered_day = day_of(parse_ts(created_ts), self.settings.day_start_time)
        t0 = time.perf_counter()
        timeline.render_timeline(
            session, rendered_day=rendered_day, estimator=self.estimator,
            budget=s.ti_budget_tokens, created_ts=created_ts,
            visible=lambda e: e.first_message_id <= last_id,
        )
        self.timings["roll-ups"] += time.perf_counter() - t0
        return len(groups)

    def flush_messages(self, session: Session, rows: dict[str, list[dict[str, Any]]]) -> None:
        if rows["message"]:
            t0 = time.perf_counter()
            session.connection().execute(insert(Message), rows["message"])
            self.timings["messages + FTS index"] += time.perf_counter() - t0
            rows["message"].clear()

    def usage_row(self, ts: str, day: str, purpose: str, model: str, prompt: int,
                  write: int, read: int, output: int) -> dict[str, Any]:
        if purpose == "chat":
            dollars = (prompt * 3 + write * 6 + read * 0.3 + output * 15) / 1e6
        else:
            dollars = (prompt * 1 + output * 5) / 1e6
        return {
            "ts": ts, "day": day, "purpose": purpose, "model": model, "source": "api",
            "input_tokens": prompt, "cache_write_5m": 0, "cache_write_1h": write,
            "cache_read": read, "output_tokens": output, "dollars": round(dollars, 6),
            "estimated_input": prompt + write + read,
        }

    # ----- the whole year -------------------------------------------------------------
    def make(self) -> None:
        db = Database(self.home)
        started = time.perf_counter()
        counts = self.day_counts()
        rows: dict[str, list[dict[str, Any]]] = {"message": [], "usage": [], "event": []}
        pending_raw: list[Msg] = []  # the previous day's raw rest, folded at the sunset
        pending_day = ""
        last_ts: datetime | None = None
        scanned_to = 0
        with db.session() as session:
            conn = session.connection()
            conn.execute(text("PRAGMA cache_size=-262144"))
            for index, (day, count) in enumerate(zip(self.days, counts, strict=True)):
                t0 = time.perf_counter()
                thread_id = index + 1
                talk = self.day_talk(day, count, thread_id, last_ts)
                self.timings["text + token counts"] += time.perf_counter() - t0
                if not talk:
                    continue
                conn.execute(insert(Thread), [{
                    "id": thread_id, "kind": "day", "day": day, "title": day,
                    "created_ts": talk[0].ts, "raw_from_message_id": 0,
                }])
                first_ts = talk[0].ts
                self.day_rows(talk, rows)
                if pending_raw:  # yesterday's rest folds at today's first request
                    rows["event"].append(self.event(first_ts, "day_started", {"day": day}))
                    made = self.store_fold(session, "sunset", pending_day, first_ts,
                                           pending_raw, rows)
                    rows["event"].append(self.event(first_ts, "sunset_fold", {
                        "fold_id": self.next_fold - 1, "day": pending_day, "new_day": day,
                        "segments": made, "pending": 0}))
                    pending_raw = []
                *folds, (_raw, _ts, rest) = self.ceiling_folds(talk)
                for _kind, created, folded in folds:
                    self.store_fold(session, "ceiling", day, created, folded, rows)
                    rows["event"].append(self.event(created, "ceiling_fold", {
                        "fold_id": self.next_fold - 1, "exchanges": len(folded) // 2}))
                pending_raw, pending_day = rest, day
                if day == self.days[-1]:
                    rows["message"].extend(m.row() for m in rest)  # today's raw talk
                    self.flush_messages(session, rows)
                else:
                    scanned_to = max([m.id for m in talk if m.role == "user"] or [scanned_to])
                last_ts = parse_ts(talk[-1].ts)
                self.counts["messages"] += len(talk)
                self.counts["days"] += 1
                self.write_side_rows(session, rows, day, first_ts)
            self.write_memories(session, scanned_to)
            state = session.get(PromptState, 1) or PromptState(id=1)
            today = self.days[-1]
            state.current_day = state.prompt_day = today
            state.current_tab = pending_raw[-1].tab if pending_raw else "chat"
            state.ti_text = ""  # rendered below, by the real rebuild
            state.librarian_last_run_ts = (self.now - timedelta(minutes=3)).isoformat()
            session.add(state)
            session.add(Setting(key="memory_scanned_to", value_json=str(scanned_to)))
            self.timings["all inserts (one transaction)"] = time.perf_counter() - started
        t0 = time.perf_counter()
        self.first_request()
        self.timings["prepare_request (prompt state)"] = time.perf_counter() - t0
        with db.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()
        self.report(time.perf_counter() - started)

    def day_rows(self, talk: list[Msg], rows: dict[str, list[dict[str, Any]]]) -> None:
        """The ledger's chat requests and the events of a day's use."""
        rng = self.rng
        day = talk[0].day
        rows["event"].append(self.event(talk[0].ts, "app_started", {}))
        previous_tab = ""
        context = 9000 + 40 * self.counts["days"] % 3000
        for i, m in enumerate(talk):
            if m.role == "user":
                if previous_tab and m.tab != previous_tab:
                    rows["event"].append(self.event(m.ts, "tab_switch",
                                                    {"from": previous_tab, "to": m.tab}))
                previous_tab = m.tab
                reply = talk[i + 1].token_estimate if i + 1 < len(talk) else 0
                rows["usage"].append(self.usage_row(
                    m.ts, day, "chat", CHAT_MODEL, m.token_estimate + 3, 400,
                    context + rng.randint(0, 6000), reply))
            if rng.random() < 0.002:
                rows["event"].append(self.event(m.ts, "open_day", {"day": day}))

    def event(self, ts: str, name: str, detail: dict[str, Any]) -> dict[str, Any]:
        return {"ts": ts, "name": name, "detail_json": json.dumps(detail, ensure_ascii=False)}

    def write_side_rows(self, session: Session, rows: dict[str, list[dict[str, Any]]],
                        day: str, first_ts: str) -> None:
        conn = session.connection()
        for key, model in (("usage", UsageRecord), ("event", Event)):
            if rows[key]:
                conn.execute(insert(model), rows[key])
                self.counts[key] += len(rows[key])
                rows[key].clear()
        # the librarian's daily context summary, from the newest TI summaries
        recent = conn.execute(
            select(TimelineEntry.day_from, TimelineEntry.tabs, TimelineEntry.summary)
            .where(TimelineEntry.level == "segment")
            .order_by(TimelineEntry.first_message_id.desc()).limit(30)
        ).all()
        if recent:
            body = "\n".join(f"- {d} [{t}] {s}" for d, t, s in reversed(recent))
            conn.execute(insert(ContextSummary), [{
                "created_ts": first_ts, "day": day, "text": "最近の会話:\n" + body,
                "source": SUMMARY_MODEL, "persona_count": 0, "recent_count": len(recent),
            }])

    def write_memories(self, session: Session, scanned_to: int) -> None:
        """About 150 remembered statements, some superseded by newer ones."""
        rng = self.rng
        conn = session.connection()
        users = [r[0] for r in conn.execute(
            select(Message.id).where(Message.role == "user", Message.id <= scanned_to)
        ).all()]
        if not users:
            return
        facts = []
        kinds = ["preference", "fact", "promise", "shared_experience", "asked_to_remember"]
        for i in range(150):
            source = rng.choice(users)
            key = f"topic-{i % 120}"
            status = "superseded" if i >= 120 and rng.random() < 0.7 else "active"
            fact = rng.choice([
                f"{rng.choice(JA['food'])}が好き", f"{rng.choice(JA['place'])}によく行く",
                f"{rng.choice(JA['activity'])}を週に{rng.randint(1, 5)}回している",
                f"Owns {rng.randint(1, 4)} bikes", f"Works on {rng.choice(EN['project'])}",
            ])
            facts.append({
                "fact": fact, "kind": rng.choice(kinds), "key": key,
                "source_message_ids": json.dumps([source]), "confidence": 0.8,
                "created_ts": (self.now - timedelta(days=rng.randint(1, 360))).isoformat(),
                "expires_ts": None, "status": status, "supersedes_id": None,
            })
        conn.execute(insert(MemoryItem), facts)
        self.counts["memory items"] = len(facts)

    def first_request(self) -> None:
        """The prompt state as MONET leaves it: the real rebuild (TI, context block)."""
        from monet_app.services.wiring import build_core, no_model

        core = build_core(self.home, clock=ManualClock(self.now), model_factory=no_model,
                          summarizer="offline")
        try:
            core.context.prepare_request()
        finally:
            core.close()

    def report(self, seconds: float) -> None:
        db = Database(self.home, migrate=False)
        with db.engine.connect() as conn:
            def scalar(sql: str) -> Any:
                return conn.exec_driver_sql(sql).scalar()

            levels = conn.exec_driver_sql(
                "SELECT level, count(*), sum(parent_id IS NULL) FROM timelineentry GROUP BY level"
            ).all()
            folds = conn.exec_driver_sql("SELECT kind, count(*) FROM fold GROUP BY kind").all()
            state = conn.exec_driver_sql(
                "SELECT current_day, ti_tokens, length(ti_text) - length(replace(ti_text, "
                "char(10), '')) - 1, context_tokens FROM promptstate").one()
            print(f"home                     {self.home}")
            print(f"days                     {scalar('SELECT count(*) FROM thread'):,} "
                  f"({self.days[0]} .. {self.days[-1]}; today = {state[0]})")
            roles = conn.exec_driver_sql("SELECT role, count(*) FROM message GROUP BY role").all()
            print(f"messages                 {scalar('SELECT count(*) FROM message'):,} ("
                  + ", ".join(f"{r} {n:,}" for r, n in roles) + "); today raw "
                  f"{scalar('SELECT count(*) FROM message WHERE segment_id IS NULL'):,}")
            chars = scalar("SELECT avg(length(text)) FROM message WHERE role != 'tool'")
            tokens = scalar("SELECT sum(token_estimate) FROM message")
            print(f"text                     {chars:.0f} characters per message on average; "
                  f"{tokens:,} tokens (tiktoken, as MONET counts them)")
            print("folds                    " + ", ".join(f"{k} {n:,}" for k, n in folds))
            print(f"segments                 {scalar('SELECT count(*) FROM segment'):,}")
            print("TI entries by level      " + ", ".join(
                f"{lv} {n:,} ({top:,} shown)" for lv, n, top in levels))
            print(f"rendered TI              {state[2]} lines, {state[1]:,} tokens "
                  f"(budget {self.settings.ti_budget_tokens:,}); context block {state[3]:,} "
                  "tokens")
            print(f"side rows                usage {scalar('SELECT count(*) FROM usagerecord'):,},"
                  f" events {scalar('SELECT count(*) FROM event'):,}, presummaries "
                  f"{scalar('SELECT count(*) FROM presummary'):,}, context summaries "
                  f"{scalar('SELECT count(*) FROM contextsummary'):,}, memory items "
                  f"{scalar('SELECT count(*) FROM memoryitem'):,}")
        db.close()
        size = sum(f.stat().st_size for f in self.home.glob("monet.db*")) / 1e6
        print(f"database                 {size:.0f} MB")
        print(f"made in                  {seconds:.1f} s: " + ", ".join(
            f"{k} {v:.1f} s" for k, v in self.timings.items()))


# ----- measuring ----------------------------------------------------------------------
def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def spread(values: Sequence[float]) -> str:
    return (f"{statistics.median(values):7.1f} {percentile(values, 0.95):7.1f} "
            f"{max(values):7.1f}")


def verdict(value: float, target: float) -> str:
    return "PASS" if value <= target else "MISS"


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    result = fn()
    return (time.perf_counter() - t0) * 1000, result


def memory_mb() -> tuple[float, float]:
    """(VmRSS, VmHWM) of this process in MB."""
    found = {"VmRSS": 0.0, "VmHWM": 0.0}
    try:
        with open("/proc/self/status") as handle:
            for line in handle:
                key = line.split(":")[0]
                if key in found:
                    found[key] = int(line.split()[1]) / 1024
    except OSError:
        pass
    return found["VmRSS"], found["VmHWM"]


def home_now(home: Path) -> datetime:
    """Two minutes after the home's newest message: the clock of every measurement."""
    db = Database(home, migrate=False)
    try:
        with db.session() as session:
            newest = session.connection().execute(
                select(Message.ts).order_by(Message.id.desc()).limit(1)).scalar_one()
    finally:
        db.close()
    return parse_ts(newest) + timedelta(minutes=2)


@contextmanager
def history_copy(home: Path, core: Any) -> Iterator[tuple[Path, str | None]]:
    """A throwaway copy of the history for the measurements that write: a folder with a
    copy of ``monet.db``, or, for a history on a server, a database made from it as a
    template (``CREATE DATABASE ... TEMPLATE``; the source's connections are closed
    first, as PostgreSQL requires). Yields the copy's folder and URL (None: the file)."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp)
        if not core.db.server:
            src = sqlite3.connect(home / "monet.db")
            dst = sqlite3.connect(copy / "monet.db")
            src.backup(dst)
            src.close()
            dst.close()
            yield copy, None
            return
        from sqlalchemy.engine import make_url

        source = make_url(core.db.url)
        name = f"{source.database}_measure_copy"
        admin = create_engine(source.set(drivername="postgresql+psycopg", database="postgres"),
                              isolation_level="AUTOCOMMIT")
        core.db.engine.dispose()
        try:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
                conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{source.database}"'))
            yield copy, source.set(database=name).render_as_string(hide_password=False)
        finally:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()


@contextmanager
def profiled(enabled: bool) -> Iterator[None]:
    if not enabled:
        yield
        return
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    try:
        yield
    finally:
        profiler.disable()
        pstats.Stats(profiler).strip_dirs().sort_stats("cumulative").print_stats(25)


class Row:
    """One printed figure and its verdict."""

    @staticmethod
    def add(name: str, values: Sequence[float], target: float | None, note: str = "") -> None:
        judged = "" if target is None else verdict(percentile(values, 0.95), target)
        print(f"{name:46} {spread(values)}  {judged:4} {note}", flush=True)


def measure(home: Path, runs: int, cold_runs: int, profile: str | None) -> None:
    from monet_app.operations.search import search
    from monet_app.services.wiring import build_core, no_model
    from monet_app.window.navigator import Navigator
    from ui.items import ALL_TABS

    now = home_now(home)
    rng = random.Random(7)
    rss_start = memory_mb()[0]
    t0 = time.perf_counter()
    core = build_core(home, clock=ManualClock(now), model_factory=no_model,
                      summarizer="offline")
    nav = Navigator(core)
    build_ms = (time.perf_counter() - t0) * 1000
    today = nav.today()
    with core.db.session() as session:
        days = [d for (d,) in session.connection().execute(
            select(Thread.day).where(Thread.day != today)).all()]
        n_messages = session.connection().execute(select(func.count(Message.id))).scalar()
    print(f"home {home}: {n_messages:,} messages over {len(days) + 1} days, today {today}, "
          f"clock {now.isoformat()}")
    print(f"the history: {core.db.where}")
    print(f"build_core + Navigator: {build_ms:.0f} ms; python {sys.version.split()[0]}; "
          f"{os.cpu_count()} CPUs")
    print()
    print(f"{'figure (ms unless said)':46} {'p50':>7} {'p95':>7} {'max':>7}  "
          f"target {TARGET_MS:.0f} ms on p95")
    only = profile

    # ----- open a day ------------------------------------------------------------------
    if only in (None, "open_day"):
        picks = [rng.choice(days) for _ in range(runs)]
        with profiled(only == "open_day"):
            samples, sizes = [], []
            for day in picks:
                def open_day(day: str = day) -> int:
                    nav.open_day(day)
                    return len(nav.rows())
                ms, shown = timed(open_day)
                samples.append(ms)
                sizes.append(shown)
        Row.add("open a past day: open_day + rows() [tab]", samples, TARGET_MS,
                f"({statistics.mean(sizes):.0f} rows shown in tab {nav.tab!r})")
        nav.switch_tab(ALL_TABS)
        samples, sizes = [], []
        for day in picks:
            def open_all(day: str = day) -> int:
                nav.open_day(day)
                rows = nav.rows()
                nav.tab_counts()
                nav.latest_exchange()
                return len(rows)
            ms, shown = timed(open_all)
            samples.append(ms)
            sizes.append(shown)
        Row.add("  all tabs, + tab_counts + latest_exchange", samples, TARGET_MS,
                f"({statistics.mean(sizes):.0f} rows)")
        nav.back_to_today()
        nav.switch_tab("chat")

    # ----- the Timeline Index ----------------------------------------------------------
    if only in (None, "timeline"):
        with profiled(only == "timeline"):
            samples = [timed(nav.timeline)[0] for _ in range(runs)]
        lines = len(nav.timeline())
        Row.add("TI pane: Navigator.timeline()", samples, TARGET_MS, f"({lines} lines)")
        samples = [timed(lambda: core.context.timeline_now())[0] for _ in range(runs)]
        Row.add("TI text: timeline_entries() + timeline_now()", samples, TARGET_MS)
        samples = []
        for _ in range(runs):
            session = Session(core.db.engine, expire_on_commit=False)
            try:
                from storage.prompt_state import prompt_state

                state = prompt_state(session)
                samples.append(timed(lambda s=session, st=state: core.context._render(s, st))[0])
            finally:
                session.rollback()
                session.close()
        Row.add("TI at a rebuild: ContextManager._render", samples, TARGET_MS,
                "(rolled back; no roll-up due)")

    # ----- search ----------------------------------------------------------------------
    if only in (None, "search"):
        every: list[float] = []
        with profiled(only == "search"):
            for label, query in QUERIES:
                samples = []
                found = 0
                for _ in range(runs):
                    ms, items = timed(lambda q=query: search(core, q).value)
                    samples.append(ms)
                    found = len(items)
                every += samples
                Row.add(f"search: {label}", samples, TARGET_MS, f"({query!r}: {found} results)")
            for label, query in RECALLS:  # Claude's search_history, 5 results
                samples = []
                for _ in range(runs):
                    with core.db.session() as session:
                        ms, items = timed(lambda q=query, s=session: recall(s, q, 5))
                    samples.append(ms)
                every += samples
                Row.add(f"recall: {label}", samples, TARGET_MS, f"({query!r})")

    # ----- prepare_request for a turn today (on a copy) --------------------------------
    if only in (None, "request"):
        with history_copy(home, core) as (copy, copy_url):
            clock = ManualClock(now)
            other = build_core(copy, clock=clock, model_factory=no_model, summarizer="offline",
                               database_url=copy_url)
            try:
                samples, turns = [], []
                tab = "chat"
                with profiled(only == "request"):
                    for i in range(runs):
                        clock.set(now + timedelta(minutes=2 * i))
                        started = time.perf_counter()
                        other.context.commit_user_message(f"今日の{i}番目の質問です。京都の天気は？",
                                                          tab)
                        samples.append(timed(other.context.prepare_request)[0])
                        clock.set(now + timedelta(minutes=2 * i, seconds=30))
                        other.context.record_reply("晴れの予報です。" * 20, tab)
                        turns.append((time.perf_counter() - started) * 1000)
                Row.add("prepare_request, a turn today (no rebuild)", samples, TARGET_MS)
                Row.add("a whole turn: commit + prepare + reply", turns, None,
                        f"({1000 / statistics.mean(turns):.0f} turns/s without the model)")
                sunsets = []
                for i in range(3):
                    morning = datetime.combine(date.fromisoformat(today) + timedelta(days=i + 1),
                                               datetime.min.time(), tzinfo=now.tzinfo)
                    clock.set(morning + timedelta(hours=9))
                    other.context.commit_user_message("おはよう", tab)
                    sunsets.append(timed(other.context.prepare_request)[0])
                    other.context.record_reply("おはようございます。", tab)
                Row.add("prepare_request at a sunset (fold + render)", sunsets, None,
                        "(3 sunsets; no target)")
            finally:
                other.close()

    rss, hwm = memory_mb()
    core.close()
    if only is None:
        print(f"{'RSS of this process after all of the above':46} {rss:7.0f} MB   "
              f"{verdict(rss, TARGET_RSS_MB)} (peak VmHWM {hwm:.0f} MB; {rss_start:.0f} MB at "
              f"start; no Qt)")

    # ----- the window: cold start, and the same work in it -----------------------------
    if only in (None, "cold", "window"):
        if only == "cold":
            run_child(home, now, "profile")
            return
        if only == "window":
            run_child(home, now, "work-profile", days=[rng.choice(days) for _ in range(10)])
            return
        window = run_child(home, now, "work", days=[rng.choice(days) for _ in range(10)])
        for name, key in (("window: open a past day (AppController)", "open_day"),
                          ("window: the TI pane refreshed", "timeline"),
                          ("window: search + show results", "search")):
            Row.add(name, window[key], TARGET_MS)
        print(f"{'RSS of the window after that work':46} {window['rss']:7.0f} MB   "
              f"{verdict(window['rss'], TARGET_RSS_MB)} (peak VmHWM {window['hwm']:.0f} MB)")
        times = [run_child(home, now, "paint")["ms"] for _ in range(cold_runs)]
        median = statistics.median(times)
        print(f"{'cold start to a painted window':46} {median:7.0f} ms   "
              f"{verdict(median, TARGET_COLD_MS)} (median of {cold_runs}: "
              + ", ".join(f"{t:.0f}" for t in times) + f"; target {TARGET_COLD_MS:.0f} ms)")
        if today != day_of(datetime.now().astimezone(), Settings().day_start_time):
            print("  (the window's clock is fixed at the home's today, not the system's)")


_CHILD = r"""
import json, sys, time
started = time.perf_counter()
mode = sys.argv[3]
if mode == "profile":
    import cProfile, pstats
    profiler = cProfile.Profile()
    profiler.enable()
from pathlib import Path
from PySide6.QtWidgets import QApplication
from cms.clock import ManualClock, parse_ts
from monet_app.window.app import AppController
from ui.look import apply_palette, install_translator
app = QApplication(sys.argv[:1])
apply_palette(app)
install_translator(app)
controller = AppController(Path(sys.argv[1]), clock=ManualClock(parse_ts(sys.argv[2])),
                           needs_key=False)
controller.window.show()
controller.window.repaint()
app.processEvents()
print("painted", flush=True)
if mode == "profile":
    profiler.disable()
    pstats.Stats(profiler, stream=sys.stderr).strip_dirs().sort_stats("cumulative").print_stats(25)
if mode.startswith("work"):
    from monet_app.operations.changes import Changes
    from monet_app.operations.search import search_items
    if mode == "work-profile":
        import cProfile, pstats
        profiler = cProfile.Profile()
        profiler.enable()
    def ms(fn):
        t0 = time.perf_counter()
        fn()
        app.processEvents()
        return (time.perf_counter() - t0) * 1000
    out = {"open_day": [], "timeline": [], "search": []}
    for day in json.loads(sys.argv[4]):
        out["open_day"].append(ms(lambda: controller.open_day(day)))
    controller.open_day(controller.nav.today())
    for _ in range(10):
        out["timeline"].append(ms(lambda: controller.panes.refresh(Changes(timeline=True))))
    for query in json.loads(sys.argv[5]):
        out["search"].append(ms(lambda: controller.window.recall.show_search_results(
            search_items(controller.core, query).value)))
    if mode == "work-profile":
        profiler.disable()
        stats = pstats.Stats(profiler, stream=sys.stderr).strip_dirs()
        stats.sort_stats("cumulative").print_stats(25)
        stats.sort_stats("tottime").print_stats(12)
    status = dict(line.split(":", 1) for line in open("/proc/self/status") if ":" in line)
    out["rss"] = int(status["VmRSS"].split()[0]) / 1024
    out["hwm"] = int(status["VmHWM"].split()[0]) / 1024
    print(json.dumps(out), flush=True)
controller.close()
"""


def run_child(home: Path, now: datetime, mode: str, days: list[str] | None = None
              ) -> dict[str, Any]:
    """A fresh Python that opens the window on ``home`` (offscreen)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    args = [sys.executable, "-c", _CHILD, str(home), now.isoformat(), mode]
    if mode.startswith("work"):
        args += [json.dumps(days), json.dumps([q for _label, q in QUERIES])]
    started = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.PIPE,
                             stderr=None if "profile" in mode else subprocess.DEVNULL,
                             cwd=ROOT, env=env, text=True)
    assert child.stdout is not None
    line = child.stdout.readline()
    painted = (time.perf_counter() - started) * 1000
    if "painted" not in line:
        raise SystemExit("the window did not paint")
    result: dict[str, Any] = {"ms": painted}
    if mode.startswith("work"):
        result.update(json.loads(child.stdout.readline()))
    child.wait(timeout=120)
    return result


# ----- the command line ---------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("make", help="generate a year-size home in DIR")
    make.add_argument("home", type=Path, metavar="DIR")
    make.add_argument("--days", type=int, default=365)
    make.add_argument("--messages", type=int, default=100_000)
    make.add_argument("--seed", type=int, default=1)
    make.add_argument("--today-messages", type=int, default=60)
    make.add_argument("--end-day", help="the last day (today); default: today by the clock")
    make.add_argument("--force", action="store_true", help="replace a home already in DIR")
    meas = sub.add_parser("measure", help="print the issue 13 figures for the home in DIR")
    meas.add_argument("home", type=Path, metavar="DIR")
    meas.add_argument("--runs", type=int, default=20)
    meas.add_argument("--cold-runs", type=int, default=5)
    meas.add_argument("--database-url", metavar="URL",
                      help="measure the history on this server (a copy made by "
                           "`monet migrate-to URL --home DIR`); \"\" is the file")
    meas.add_argument("--profile", choices=["open_day", "timeline", "search", "request", "cold",
                                            "window"])
    args = parser.parse_args()
    if args.command == "make":
        home: Path = args.home
        if (home / "monet.db").exists():
            if not args.force:
                raise SystemExit(f"{home} already holds a MONET database (--force replaces it)")
            for path in home.glob("monet.db*"):
                path.unlink()
            shutil.rmtree(home / "backups", ignore_errors=True)
        now = datetime.now().astimezone()
        settings = Settings()
        end = date.fromisoformat(args.end_day) if args.end_day else date.fromisoformat(
            day_of(now, settings.day_start_time))
        if args.end_day:  # the afternoon of that day
            now = datetime.combine(end, datetime.min.time(), tzinfo=now.tzinfo) + timedelta(
                hours=15)
        elif (now - datetime.combine(end, settings.day_start_time, tzinfo=now.tzinfo)
              ) < timedelta(minutes=30):
            now += timedelta(minutes=30)  # leave today's talk some room after the boundary
        YearMaker(home, args.days, args.messages, args.seed, args.today_messages, end,
                  now).make()
        return
    if args.database_url is not None:  # for this process and the window's children
        os.environ[URL_ENV] = args.database_url
    if database_url(args.home) is None and not (args.home / "monet.db").exists():
        raise SystemExit(f"no MONET home in {args.home}: make one first")
    measure(args.home, args.runs, args.cold_runs, args.profile)


if __name__ == "__main__":
    main()
