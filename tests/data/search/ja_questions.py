"""60 natural Japanese questions over the public trace rpc-pair-ja.

The trace is built from RealPersonaChat (Nagoya University, CC BY-SA 4.0; see
tests/data/README.md). Each question is paired with the exchange that answers it. They were
written by a helper who never saw MONET's search, and are used to measure MRR@5 of MONET's
search against BM25 baselines.

Each entry is ``(question, line, field, answer)``: ``line`` is the 0-based index of the line
in ``tests/data/traces/rpc-pair-ja.jsonl`` (counting every line), ``field`` is ``"user"``
or ``"assistant"``, and ``answer`` is a short exact substring of that field's text holding
the answer, so a test can find the message by its text. Targets are spread over the whole
file, 30 in "user" and 30 in "assistant". Questions paraphrase the target (kana for kanji,
casual words, short keyword queries); the ones marked "key word in kana" turn on a word
written all in hiragana or katakana in the history.
"""

QUESTIONS: list[tuple[str, int, str, str]] = [
    # key word in kana
    ("デッドバイデイライト 知ってるか聞いたやつ", 3, "user", "デッドバイデイライト"),
    ("ランク上げ、あとpipいくつ足りなかったんだっけ？", 9, "user", "pip3つ足りず"),
    ("私がよく使ってるキラーって何だったっけ", 11, "user", "リージョンを使います"),
    (
        "パートナーと同棲するのって何月からって言ってたっけ？",
        19,
        "assistant",
        "１月には一緒に住もう",
    ),
    ("グラノーラに牛乳じゃなくて何かけて食べたんだっけ", 21, "user", "グラノーラに豆乳かけて"),
    ("バイト先のまかないってタダなんだっけ？", 33, "assistant", "賄いは無料で食べさせて"),
    ("前はキッチンで料理作ってたって言ってたよね？", 42, "assistant", "以前は厨房で働いていた"),
    ("出社って週に何日って言ったっけ", 49, "user", "週２～３で出勤"),
    ("チャリじゃなくてバスで通勤した日、なんでだったっけ", 51, "assistant", "雨がひどくて自転車で"),
    ("大阪までドライブして行った、運動できる施設の名前は？", 60, "assistant", "てんとう虫パーク"),
    ("前に話した、ヤクルト1000の値段っていくらだっけ？", 85, "user", "7本入りで1000円"),
    ("相手が好きで読んでる本のジャンルなんだった？", 90, "assistant", "ライトノベルです"),
    ("ドライブで往復何キロも走るって話したっけ", 100, "user", "往復1000キロ走ったり"),
    ("梅茶漬け メーカー", 106, "user", "永谷園の買ってました"),
    ("相手が日帰りで行った温泉の名前", 120, "assistant", "有馬温泉に行きました"),
    ("何回もお参りしてる縁切りの神社、名前なんだっけ", 129, "user", "安井金比羅宮ご存じ"),
    (
        "仕事中に眠くなったらどうしてるって言ってた？",
        135,
        "assistant",
        "立って歩くようにしてました",
    ),
    ("甘くて飲みやすいビールって何を勧めたっけ", 143, "user", "フルーツビールとかは"),
    # key word in kana
    ("お昼につくね食べてたの、いつの話だっけ", 148, "assistant", "つくねと白米を食べました"),
    # key word in kana
    ("ローソン おすすめ", 153, "assistant", "ローソンのおすすめはパンとゼリー"),
    # key word in kana
    ("ちょっと高いけど食べてみてって勧めたマスカットの名前", 161, "user", "シャインマスカット"),
    ("カレーをごはんの代わりに何にかけて食べてたんだっけ", 186, "user", "キャベツにかけて食べる"),
    ("映画のあとに食べに行くラーメン、何系って言ってた？", 197, "assistant", "鶏白湯のラーメン"),
    ("苦手な肉ってなんだった？内臓系？", 215, "assistant", "レバーとかは無理です"),
    ("通勤って片道、正確には何時間何分って言ったっけ", 228, "user", "片道1時間45分"),
    ("チャリ通勤の帰りってどれくらいかかるって？", 234, "assistant", "４０分から５０分くらい"),
    ("冷やし中華 果物", 236, "user", "冷やし中華と梨を食べました"),
    ("ラーメン屋で売ってた冷凍ぎょうざ、何個でいくらだった？", 241, "assistant", "２０個５００円"),
    ("ワンピース映画 歌手", 256, "assistant", "Adoという歌手"),
    ("私の定時って何時って言ったっけ", 269, "user", "定時は17時なので"),
    ("外食しなくなった理由なんだっけ", 277, "assistant", "コロナのせいで外食が"),
    # key word in kana
    ("チーズフォンデュ 友達の家", 288, "user", "チーズフォンデュパーティー"),
    ("来年にお預けにした旅行先ってどこだったっけ", 290, "user", "今年の夏沖縄行きたかった"),
    # key word in kana
    ("相手が最近よく飲んでるお酒ってなんだっけ", 312, "assistant", "よくチューハイを飲む"),
    ("ストレス解消に行こうと思ってる温泉、どこの県だっけ", 330, "user", "山梨の日帰り温泉"),
    ("長い休憩のとき、どこで昼寝してるって言ってた？", 343, "assistant", "テーブルの一つを借りて"),
    ("昼休みってご飯食べたら何分残るって言ったっけ", 350, "user", "残り20分くらい"),
    ("夏の思い出 京都 そうめん", 352, "assistant", "流しそうめんに行った"),
    ("年越しそば 代わり", 364, "user", "年越しそばの代わりに"),
    ("やきうどんの味付け、何使ってたって言ってた？", 369, "assistant", "オイスターソースを使って"),
    ("うちのカレーの隠し味って何て言ったっけ", 377, "user", "ケチャップとソース"),
    ("小さい頃のアレルギー、何の食べ物だった？", 385, "assistant", "牛肉と卵がありました"),
    ("実家がカニ鍋の日、相手だけ何が出てくるんだっけ", 392, "assistant", "自分だけ水炊きが用意"),
    # key word in kana
    ("壊れちゃったから買いに行くって言ったものなんだっけ", 411, "user", "キャリーケースが壊れて"),
    # key word in kana
    ("美容院でどんな髪型にするって言ってた？", 412, "assistant", "ツーブロックにしよう"),
    ("髪の内側だけ色入れるの勧めたやつ", 423, "user", "インナーカラーとかも"),
    ("しらたまって何があれば作れるって教えたっけ", 429, "user", "白玉粉さえあれば"),
    ("スカイツリー 何区", 447, "user", "墨田区なので"),
    ("勉強し直すって言ってた資格、なんだっけ", 460, "assistant", "日商簿記ですね"),
    # key word in kana
    ("いろはす ジュース扱い？", 474, "assistant", "いろはすや天然水"),
    # key word in kana
    ("水のラベルってなんて書いてあるって教えたっけ", 476, "user", "ナチュラルミネラルウォーター"),
    ("ボルダリングで破れたズボン、何色だった？", 494, "assistant", "ベージュですね"),
    ("おじいちゃんが入院したのはいつ？", 497, "user", "祖父が救急搬送されて"),
    # key word in kana
    ("夏バテのときに食べてたものって何だっけ", 502, "assistant", "マーボーナスを食べて"),
    ("父がジュース1日何本も飲んでたって話", 516, "user", "４～５本飲んだり"),
    ("父 高血圧 倒れた", 519, "user", "高血圧で1度倒れて"),
    ("受験ってどうやって受かったって言ったっけ", 529, "user", "小論文と面接で合格"),
    ("肉の日に焼肉屋行けないのはなんでだっけ", 544, "assistant", "１０時に仕事が終わる"),
    ("天橋立にも行くって言ってたのどこの海だっけ", 565, "assistant", "夕日ヶ浦の海と天橋立"),
    ("最近始めた運動 なわとび", 578, "assistant", "最近縄跳びをしています"),
]
