"""Name-word recollection questions over the public traces, one distinctive word each.

What: questions a person would type to find one past exchange again, each paired with the
message that answers it. Every question is a full sentence (English 9-20 words; Japanese 15-40
characters, in the casual spoken style of the RealPersonaChat trace) that contains exactly one
distinctive name or rare word taken from the target message (a person, place, brand, title,
product, dish or unusual term, such as "Duotrope" or 「墨田区」) and otherwise uses ordinary
everyday words, mostly not other words of the target message. The distinctive word occurs in at
most two messages (user or assistant texts) of the whole trace file, so a search that matches it
can find the target among few candidates; the rest of the question tests that the search is not
thrown off by the everyday wording around it.

Who and how: written by a helper who never saw MONET's search (not its code, its tests of
search or its benchmarks); it read the trace files, and paraphrase_questions.py and
check_paraphrases.py for the format. Targets were picked by hand for something specific and
findable that no other line of the same file answers equally well, spread over the beginning,
middle and end of each file and kept apart from the targets and names of CONTROLS in
paraphrase_questions.py; assistant targets are asked about as what "you" said, user targets as
what "I" said. Spread: 24 English questions (8 per LongMemEval file, 4 on "user" and 4 on
"assistant" messages) and 24 Japanese ones across the whole RealPersonaChat file (12 "user", 12
"assistant"). Each entry was checked with a throwaway script: the line and field exist, the
answer substring occurs in that field's text, and the chosen word occurs in the question and in
at most two messages of the file.

Sources and licences: the traces are in ``tests/data/traces`` (see ``tests/data/README.md``).
``lme-00.jsonl``, ``lme-01.jsonl`` and ``lme-02.jsonl`` come from LongMemEval (Di Wu et al.,
ICLR 2025, https://github.com/xiaowu0162/LongMemEval), MIT licence. ``rpc-pair-ja.jsonl`` comes
from RealPersonaChat v1.0.0 (Nagoya University,
https://github.com/nu-dialogue/real-persona-chat), CC BY-SA 4.0; the Japanese entries quote
that trace and are shared under the same licence.

Each entry is ``(file, line, field, answer, question)``: ``file`` is a trace file name, ``line``
the 0-based index of its line counting every line of the file, ``field`` ``"user"`` or
``"assistant"``, and ``answer`` an exact short substring of that field's text identifying the
answer, so a test can check the message by its text.
"""

#: (trace file name, 0-based line index counting every line of the file, "user" or "assistant",
#:  an exact short substring of that field identifying the answer, the question)
NAMED: list[tuple[str, int, str, str, str]] = [
    # lme-00.jsonl
    (
        "lme-00.jsonl",
        14,
        "user",
        "a blue cheese like gorgonzola or Roquefort",
        "Did I ever ask you if Roquefort would taste good inside those stuffed mushrooms for my "
        "dinner party?",
    ),
    (
        "lme-00.jsonl",
        17,
        "assistant",
        "Songmics**: Known for their affordable",
        "Were Songmics cabinets one of the picks you gave me when I needed somewhere to keep my "
        "trinkets?",
    ),
    (
        "lme-00.jsonl",
        72,
        "assistant",
        "The Ascent (1977) - A Russian film directed by Larisa Shepitko",
        "Which movie by Shepitko did you add to my list of obscure picks to watch?",
    ),
    (
        "lme-00.jsonl",
        76,
        "user",
        "tiny alleyway in Shibuya",
        "What did I tell you about the little street I wandered into in Shibuya by myself?",
    ),
    (
        "lme-00.jsonl",
        152,
        "user",
        "founders of Airbnb and LinkedIn",
        "Whose success besides Airbnb got me dreaming about running a company of my own?",
    ),
    (
        "lme-00.jsonl",
        172,
        "assistant",
        "Pequod's Pizza**: A classic Chicago-style deep-dish pizza joint",
        "What did you say about Pequod's when I wanted somewhere to have dinner by my hotel?",
    ),
    (
        "lme-00.jsonl",
        177,
        "user",
        "a view of the Bay Bridge",
        "Which hotel was it where I said my window looked out over the Bay Bridge?",
    ),
    (
        "lme-00.jsonl",
        211,
        "assistant",
        "Duotrope (www.duotrope.com)",
        "What is Duotrope again, that site you told me about for sending out my poems?",
    ),
    # lme-01.jsonl
    (
        "lme-01.jsonl",
        11,
        "assistant",
        "The Bread Baker's Apprentice**: This book by Peter Reinhart",
        "Which title by Reinhart did you point me to for long French loaves at home?",
    ),
    (
        "lme-01.jsonl",
        55,
        "user",
        "the twist at the end left me speechless",
        "What was my reaction to Oldboy that I shared with you a while back?",
    ),
    (
        "lme-01.jsonl",
        57,
        "assistant",
        "Bananagrams**: A fast-paced, portable word game",
        "What did you tell me about Bananagrams when I was hunting for new stuff to play at home?",
    ),
    (
        "lme-01.jsonl",
        122,
        "user",
        "Knott's Berry Farm recently for their Boysenberry Festival",
        "Which theme park did I visit for the Boysenberry celebration I brought up earlier?",
    ),
    (
        "lme-01.jsonl",
        147,
        "assistant",
        "Personification by Flocabulary",
        "Which Flocabulary tune did you suggest I could use with my class?",
    ),
    (
        "lme-01.jsonl",
        163,
        "user",
        "Mindset: The New Psychology of Success",
        "What was the book by Dweck I brought up when asking for a study routine?",
    ),
    (
        "lme-01.jsonl",
        182,
        "user",
        "loving my new ASICS Gel-Kayano trainers for jogging",
        "How did I say my Gel-Kayano sneakers were working out for my morning runs?",
    ),
    (
        "lme-01.jsonl",
        239,
        "assistant",
        "Holybelly**: A trendy, specialty coffee shop",
        "What did you say about Holybelly when I asked for places to eat around my rental?",
    ),
    # lme-02.jsonl
    (
        "lme-02.jsonl",
        4,
        "assistant",
        "ManyChat**: A popular platform for building chatbots",
        "What did you say ManyChat could do for us when I asked about options for my company?",
    ),
    (
        "lme-02.jsonl",
        10,
        "user",
        "playing a lot of Overwatch and Apex Legends lately",
        "Besides Apex Legends, which other shooter did I say I was hooked on when asking for new "
        "titles?",
    ),
    (
        "lme-02.jsonl",
        38,
        "user",
        "spinach and feta turnovers",
        "Which savory turnovers did I decide to bake for the brunch I was hosting?",
    ),
    (
        "lme-02.jsonl",
        43,
        "assistant",
        "Hasan Minhaj**: He started taking improv classes at the improv troupe ComedySportz",
        "Which comedian did you say began at ComedySportz before making it big?",
    ),
    (
        "lme-02.jsonl",
        109,
        "user",
        "booked tickets for the July 15th show",
        "What date did I buy seats for Kinky Boots, the one I wanted to volunteer for?",
    ),
    (
        "lme-02.jsonl",
        114,
        "assistant",
        "1. Thule",
        "Was Thule one of the names you listed when I wanted a sturdier carrier for my vehicle?",
    ),
    (
        "lme-02.jsonl",
        205,
        "user",
        "like The Great and Bridgerton",
        "Which other series did I name alongside Bridgerton as having really lavish looks?",
    ),
    (
        "lme-02.jsonl",
        219,
        "assistant",
        '"Bleeding Love" by Leona Lewis',
        "Who sang Bleeding Love, from that list of old hits you gave me before my class "
        "get-together?",
    ),
    # rpc-pair-ja.jsonl
    (
        "rpc-pair-ja.jsonl",
        4,
        "user",
        "悲鳴上げちゃう時ありますよね",
        "ホラーゲームで悲鳴が出ちゃうって私が話したのいつだっけ",
    ),
    (
        "rpc-pair-ja.jsonl",
        16,
        "assistant",
        "ホットケーキを食べました",
        "ホットケーキが出てきたのって何の話のときだっけ",
    ),
    (
        "rpc-pair-ja.jsonl",
        22,
        "user",
        "フルーツグラノーラといって",
        "フルーツグラノーラが何なのか私が教えてあげたやつ",
    ),
    (
        "rpc-pair-ja.jsonl",
        90,
        "assistant",
        "字を読んで色々想像しながら読み進めるのが大好き",
        "ライトノベルのどこが好きって言ってたっけ",
    ),
    (
        "rpc-pair-ja.jsonl",
        108,
        "user",
        "漫画喫茶によく置いてある梅昆布茶が大好きでした",
        "漫画喫茶にあるお気に入りの飲み物、私なんて言ってたっけ",
    ),
    (
        "rpc-pair-ja.jsonl",
        154,
        "assistant",
        "フレンチトーストをよく食べます",
        "コンビニのパンならフレンチトーストがお気に入りって言ってたっけ",
    ),
    (
        "rpc-pair-ja.jsonl",
        170,
        "assistant",
        "バトルロワイヤルがとても好きで",
        "バトルロワイヤルが好きって言ってたのはどのゲームの話だっけ",
    ),
    (
        "rpc-pair-ja.jsonl",
        197,
        "assistant",
        "鶏白湯のラーメンか醤油ラーメンですね、チャーシュー丼",
        "鶏白湯のお店に行くって言ってたけど、ほかに何頼むつもりだった？",
    ),
    (
        "rpc-pair-ja.jsonl",
        236,
        "user",
        "冷やし中華と梨を食べました",
        "冷やし中華以外に晩ごはんで何があったって私言ってたっけ",
    ),
    (
        "rpc-pair-ja.jsonl",
        240,
        "assistant",
        "チャーシュー丼やタルタル唐揚げ丼",
        "タルタル唐揚げ丼とか、ほかにどんなサイドがあったって言ってたっけ",
    ),
    (
        "rpc-pair-ja.jsonl",
        303,
        "assistant",
        "Youtubeで中国料理の動画を見ている",
        "Youtubeを使えばいいって教えてくれたのはどんな料理の話？",
    ),
    (
        "rpc-pair-ja.jsonl",
        313,
        "user",
        "缶チューハイも最近美味しいもの多いですよね",
        "缶チューハイについて私どう思ってるって言ったっけ",
    ),
    (
        "rpc-pair-ja.jsonl",
        359,
        "assistant",
        "懐石料理やしゃぶしゃぶなど値段が張りますが",
        "懐石料理も出すお店って言ってたの、どこの話だっけ",
    ),
    (
        "rpc-pair-ja.jsonl",
        364,
        "user",
        "年越しそばの代わりに食べているんですかねえ",
        "年越しそばと関係あるかもって私が思いついた話、何だっけ",
    ),
    (
        "rpc-pair-ja.jsonl",
        382,
        "user",
        "虫とかのゲテモノは無理です",
        "ゲテモノは苦手って私が言ったとき、例に何を出してたっけ",
    ),
    (
        "rpc-pair-ja.jsonl",
        412,
        "assistant",
        "産毛がすごく伸びてしまったのでそこを剃ってしまうのとツーブロック",
        "ツーブロックにするって言ってたとき、ほかに何してもらうって？",
    ),
    (
        "rpc-pair-ja.jsonl",
        423,
        "user",
        "インナーカラーとかも入れてみてください",
        "インナーカラーをやってみてって私が勧めたときの会話",
    ),
    (
        "rpc-pair-ja.jsonl",
        447,
        "user",
        "墨田区なので、どちらかというと千葉よりですね",
        "墨田区ってどのへんにあるって私説明したっけ",
    ),
    (
        "rpc-pair-ja.jsonl",
        457,
        "assistant",
        "ガチャをするための石を集めるくらいでランキングは完全対象外",
        "ガチャの話が出たとき、結局どこまでやれたって言ってた？",
    ),
    (
        "rpc-pair-ja.jsonl",
        474,
        "assistant",
        "いろはすや天然水などの混ざり物はジュースなんですか",
        "いろはすみたいなのって何に入るのか質問してくれたやつ",
    ),
    (
        "rpc-pair-ja.jsonl",
        476,
        "user",
        "ナチュラルミネラルウォーターと記載されていますよ",
        "ナチュラルミネラルウォーターって表示は何のときって私言ってたっけ",
    ),
    (
        "rpc-pair-ja.jsonl",
        502,
        "assistant",
        "マーボーナスを食べていました",
        "夏バテのとき何でしのいでたって言ってたっけ、マーボーナスだっけ",
    ),
    (
        "rpc-pair-ja.jsonl",
        519,
        "user",
        "高血圧で1度倒れていて",
        "高血圧の件で家族に何があったって私話したっけ",
    ),
    (
        "rpc-pair-ja.jsonl",
        542,
        "user",
        "そういえばもうすぐ肉の日ですね",
        "肉の日が近いって私が気づいたのはどんな話の途中だっけ",
    ),
]
