"""Nickname keys read look-alikes and styled letters (issue 33): a name written with a Cyrillic A, a mathematical bold
A or small capitals is the same name as the one in Latin letters (ruzzle.nicknames.nickname_key), and a dotless i
reads as i. The keys already stored are recomputed so that a pupil on a class list, or in a room or a homework, is
still found by the name as they type it; a row whose new key another row of the same room, homework or class already
has keeps its old key (both pupils keep their seats; a new pupil typing either name gets "taken").

Revision ID: 0923
Revises: 0922
Create Date: 2026-11-29
"""

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0923"
down_revision = "0922"
branch_labels = None
depends_on = None

# This revision's key, frozen as migrations are (the store imports no game code): ruzzle.nicknames.nickname_key as it
# was on 2026-11-29, with its look-alike table (ruzzle/data/names/lookalikes.txt: code point:Latin letter) and the
# characters that show nothing; tests/test_store.py pins it to the game's rule on names of every kind.
LOOKALIKES = dict(
    (int(point, 16), latin)
    for point, latin in (
        pair.split(":")
        for pair in (
            "d7:x 131:i 184:b 18d:g 196:I 1a6:R 1bd:s 1c0:l 251:a 261:g 262:g 263:y 269:i 26a:i 26f:w 274:n 280:r "
            "28b:u 28f:y 299:b 29c:h 29f:l 37f:J 391:A 392:B 395:E 396:Z 397:H 399:I 39a:K 39b:A 39c:M 39d:N "
            "39f:O 3a1:P 3a3:C 3a4:T 3a5:Y 3a7:X 3b1:a 3b2:B 3b3:y 3b5:e 3b7:n 3b9:i 3ba:k 3bb:a 3bc:u 3bd:v "
            "3bf:o 3c1:p 3c2:c 3c3:o 3c4:t 3c5:u 3c9:w 3dc:F 3f3:j 3fa:M 405:S 406:I 408:J 410:A 412:B 414:A "
            "415:E 418:N 41a:K 41c:M 41d:H 41e:O 420:P 421:C 422:T 423:Y 425:X 426:U 428:W 42c:b 42f:R 430:a "
            "431:b 432:b 433:r 434:a 435:e 438:n 43a:k 43c:m 43e:o 43f:n 440:p 441:c 442:t 443:y 445:x 446:u "
            "448:w 44a:b 44c:b 44f:r 455:s 456:i 458:j 461:w 474:V 475:v 4ae:Y 4af:y 4bb:h 4bd:e 4c0:I 4cf:i "
            "501:d 50c:G 51b:q 51c:W 51d:w 54d:U 54f:S 555:O 561:w 563:q 566:q 570:h 578:n 57c:n 57d:u 581:g "
            "584:f 585:o 6f1:l 6f5:o 6f7:V 966:o 9e6:O a66:o ae6:o b20:O b66:O be6:o c02:o c66:o c82:o ce6:o "
            "d02:o d20:o d66:o d82:o e50:o ed0:o 101d:o 1040:o 10e7:y 10ff:o 1200:U 12d0:O 13a0:D 13a1:R 13a2:T "
            "13a5:i 13a9:Y 13aa:A 13ab:J 13ac:E 13b3:W 13b7:M 13bb:H 13bd:Y 13c0:G 13c2:h 13c3:Z 13cf:b 13d2:R "
            "13d4:W 13d5:S 13d9:V 13da:S 13de:L 13df:C 13e2:P 13e6:K 13e7:d 13f3:G 13f4:B 142f:V 144c:U 146d:P "
            "146f:d 1472:b 148d:J 14aa:L 1541:x 157c:H 157d:x 1587:R 15af:b 15b4:F 15c5:A 15de:D 15ea:D 15f0:M "
            "15f7:B 166d:X 166e:x 16b7:X 16c1:l 16d5:K 16d6:M 1d00:a 1d04:c 1d05:d 1d07:e 1d0a:j 1d0b:k 1d0d:m "
            "1d0f:o 1d11:o 1d18:p 1d1b:t 1d1c:u 1d20:v 1d21:w 1d22:z 1d26:r 1d83:g 1d8c:y 1e9d:f 1eff:y 212e:e "
            "2223:l 2228:v 222a:U 22a4:T 22c1:v 22c3:U 22ff:E 2373:i 2374:p 237a:a 23fd:l 2502:l 2573:X 27d9:T "
            "292b:x 292c:x 2a2f:x 2c85:r 2c8e:H 2c92:I 2c94:K 2c98:M 2c9a:N 2c9e:O 2c9f:o 2ca2:P 2ca3:p 2ca4:C "
            "2ca5:c 2ca6:T 2ca8:Y 2cac:X 2cd0:L 2d38:V 2d39:E 2d4f:l 2d54:O 2d55:Q 2d5d:X 3007:O a4d0:B a4d1:P "
            "a4d2:d a4d3:D a4d4:T a4d6:G a4d7:K a4d9:J a4da:C a4dc:Z a4dd:F a4df:M a4e0:N a4e1:L a4e2:S a4e3:R "
            "a4e6:V a4e7:H a4ea:W a4eb:X a4ec:Y a4ee:A a4f0:E a4f2:l a4f3:O a4f4:U a647:i a6df:V a730:f a731:s "
            "a798:F a799:f a79f:u a7af:q a7b2:J a7b3:X a7b4:B ab32:e ab35:f ab3d:o ab47:r ab48:r ab4e:u ab52:u "
            "ab5a:y ab75:i ab81:r ab83:w ab93:z aba9:v abaa:s abaf:c 10282:B 10286:E 10287:F 1028a:l 10290:X "
            "10292:O 10295:P 10296:S 10297:T 102a0:A 102a1:B 102a2:C 102a5:F 102ab:O 102b0:M 102b1:T 102b2:Y "
            "102b4:X 102cf:H 102f5:Z 10301:B 10302:C 10309:l 10311:M 10315:T 10317:X 10320:l 10322:X 10404:O "
            "10415:C 1041b:L 10420:S 1042c:o 1043d:c 10448:s 104b4:R 104c2:O 104ce:U 104ea:o 104f6:u 10513:N "
            "10516:O 10518:K 1051c:C 1051d:V 10525:F 10526:L 10527:X 114d0:O 11706:v 1170a:w 1170e:w 1170f:w "
            "118a0:V 118a2:F 118a3:L 118a4:Y 118a6:E 118a9:Z 118ae:E 118b2:L 118b5:O 118b8:U 118bc:T 118c0:v "
            "118c1:s 118c2:F 118c3:i 118c4:z 118c8:o 118d7:o 118d8:u 118dc:y 118e0:O 118e5:Z 118e6:W 118e9:C "
            "118ec:X 118ef:W 118f2:C 16f08:V 16f0a:T 16f16:L 16f28:l 16f35:R 16f3a:S 16f40:A 16f42:U 16f43:Y "
            "1d20d:V 1d213:F 1d216:R 1d22a:L 1f150:A 1f151:B 1f152:C 1f153:D 1f154:E 1f155:F 1f156:G 1f157:H "
            "1f158:I 1f159:J 1f15a:K 1f15b:L 1f15c:M 1f15d:N 1f15e:O 1f15f:P 1f160:Q 1f161:R 1f162:S 1f163:T "
            "1f164:U 1f165:V 1f166:W 1f167:X 1f168:Y 1f169:Z 1f170:A 1f171:B 1f172:C 1f173:D 1f174:E 1f175:F "
            "1f176:G 1f177:H 1f178:I 1f179:J 1f17a:K 1f17b:L 1f17c:M 1f17d:N 1f17e:O 1f17f:P 1f180:Q 1f181:R "
            "1f182:S 1f183:T 1f184:U 1f185:V 1f186:W 1f187:X 1f188:Y 1f189:Z 1f1e6:A 1f1e7:B 1f1e8:C 1f1e9:D "
            "1f1ea:E 1f1eb:F 1f1ec:G 1f1ed:H 1f1ee:I 1f1ef:J 1f1f0:K 1f1f1:L 1f1f2:M 1f1f3:N 1f1f4:O 1f1f5:P "
            "1f1f6:Q 1f1f7:R 1f1f8:S 1f1f9:T 1f1fa:U 1f1fb:V 1f1fc:W 1f1fd:X 1f1fe:Y 1f1ff:Z 1f74c:C 1f768:T "
        ).split()
    )
)
SHOW_NOTHING = frozenset(
    chr(int(point, 16))
    for point in (
        "34f 115f 1160 17b4 17b5 180b 180c 180d 180e 180f 2800 3164 fe00 fe01 fe02 fe03 fe04 fe05 fe06 fe07 fe08 fe09 "
        "fe0a fe0b fe0c fe0d fe0e fe0f ffa0 e0100 e0101 e0102 e0103 e0104 e0105 e0106 e0107 e0108 e0109 e010a e010b "
        "e010c e010d e010e e010f e0110 e0111 e0112 e0113 e0114 e0115 e0116 e0117 e0118 e0119 e011a e011b e011c e011d "
        "e011e e011f e0120 e0121 e0122 e0123 e0124 e0125 e0126 e0127 e0128 e0129 e012a e012b e012c e012d e012e e012f "
        "e0130 e0131 e0132 e0133 e0134 e0135 e0136 e0137 e0138 e0139 e013a e013b e013c e013d e013e e013f e0140 e0141 "
        "e0142 e0143 e0144 e0145 e0146 e0147 e0148 e0149 e014a e014b e014c e014d e014e e014f e0150 e0151 e0152 e0153 "
        "e0154 e0155 e0156 e0157 e0158 e0159 e015a e015b e015c e015d e015e e015f e0160 e0161 e0162 e0163 e0164 e0165 "
        "e0166 e0167 e0168 e0169 e016a e016b e016c e016d e016e e016f e0170 e0171 e0172 e0173 e0174 e0175 e0176 e0177 "
        "e0178 e0179 e017a e017b e017c e017d e017e e017f e0180 e0181 e0182 e0183 e0184 e0185 e0186 e0187 e0188 e0189 "
        "e018a e018b e018c e018d e018e e018f e0190 e0191 e0192 e0193 e0194 e0195 e0196 e0197 e0198 e0199 e019a e019b "
        "e019c e019d e019e e019f e01a0 e01a1 e01a2 e01a3 e01a4 e01a5 e01a6 e01a7 e01a8 e01a9 e01aa e01ab e01ac e01ad "
        "e01ae e01af e01b0 e01b1 e01b2 e01b3 e01b4 e01b5 e01b6 e01b7 e01b8 e01b9 e01ba e01bb e01bc e01bd e01be e01bf "
        "e01c0 e01c1 e01c2 e01c3 e01c4 e01c5 e01c6 e01c7 e01c8 e01c9 e01ca e01cb e01cc e01cd e01ce e01cf e01d0 e01d1 "
        "e01d2 e01d3 e01d4 e01d5 e01d6 e01d7 e01d8 e01d9 e01da e01db e01dc e01dd e01de e01df e01e0 e01e1 e01e2 e01e3 "
        "e01e4 e01e5 e01e6 e01e7 e01e8 e01e9 e01ea e01eb e01ec e01ed e01ee e01ef "
    ).split()
)


def nickname_key(name: str) -> str:
    """What made two nicknames the same in a room at this revision (ruzzle.nicknames.nickname_key, frozen)."""
    visible = "".join(ch for ch in name if ch not in SHOW_NOTHING and unicodedata.category(ch) not in ("Cf", "Cc"))
    text = unicodedata.normalize("NFKC", visible).casefold().translate(LOOKALIKES)
    return "".join(ch for ch in unicodedata.normalize("NFKD", text).casefold() if not unicodedata.combining(ch))


# table: the column of the room, homework or class in which a key is unique
TABLES = {"room_players": "room_id", "assignment_pupils": "assignment_id", "class_pupils": "class_id"}


def upgrade() -> None:
    connection = op.get_bind()
    for name, parent in TABLES.items():
        table = sa.table(
            name,
            sa.column("id", sa.Integer),
            sa.column(parent, sa.Integer),
            sa.column("nickname", sa.String),
            sa.column("nickname_key", sa.String),
        )
        rows = connection.execute(sa.select(table.c.id, table.c[parent], table.c.nickname, table.c.nickname_key)).all()
        taken = {(row[1], row.nickname_key) for row in rows}
        for row in rows:
            key = nickname_key(row.nickname)
            if key != row.nickname_key and (row[1], key) not in taken:
                taken.add((row[1], key))
                connection.execute(sa.update(table).where(table.c.id == row.id).values(nickname_key=key))


def downgrade() -> None:
    """Keys stay as recomputed: the old code still finds a name typed in Latin letters by them, and a look-alike
    spelling is refused as taken, as in this revision."""
