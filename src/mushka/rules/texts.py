"""The rules in words: every rule id of RULES, in English and Russian.

Each rule of the specification (N1-N4, C1-C22, MI1-MI14, K1-K24) and each
guarantee of its §4 (numbered here G1-G5 in the order §4 lists them) has a
short statement *of the rule as this program plays it*, with the tag of its
source:

=======  ==================================================================
tag      meaning
=======  ==================================================================
SEED     stated in one of the two Russian source texts
RU       stated in another Russian source
XC       taken from the French and English relatives (Mouche, Loo)
DEC      a decision of this project; also every rule the specification
         leaves untagged (notation, plain trick-taking, the guarantees)
=======  ==================================================================

A statement is a template filled from a table's :class:`~mushka.rules.Rules`:
the options, the number of players and the deck they imply (C18 shows the
table's ремиз, C2 the deck for its number of players, K20 its suit values).
:func:`render_rules` returns the rules that apply to a variant in order, each
with its text, tags and the options that affect it:

* classic: §0 (N) and §1 (C);
* mistigri: §0, §1 as modified by §2 (each C rule rendered with the
  mistigri values and pointing to the MI rules that change it), then §2 (MI);
* kopilka: §0 and §3 (K);

and, in every variant, the guarantees G1-G5 at the end.

The Russian is written in the words of the source texts: запись, списывать,
ремиз, прикуп и прикупка, пас, козырь, мушка, касса и копилка, взнос,
взятка, сдача, партия, партнёры, старшая масть.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from mushka.cards import Rank
from mushka.rules.choices import AllPass, FlushMode, LonePlayer, Redistribution, Renege
from mushka.rules.model import Rules
from mushka.rules.options import OPTIONS, options_for
from mushka.rules.variants import find_variant

# --- sections -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Section:
    """A group of rules shown together (cards, deal, declaring, tricks …)."""

    id: str
    title_en: str
    title_ru: str

    def title(self, lang: str = "en") -> str:
        """The section's title in ``lang``."""
        return self.title_ru if lang == "ru" else self.title_en


SECTIONS: Final[tuple[Section, ...]] = (
    Section("notation", "Cards and notation", "Карты и обозначения"),
    Section("players", "Players, deck, rank of the cards", "Игроки, колода, старшинство карт"),
    Section("setup", "Players, deck, pot and deal", "Игроки, колода, касса и сдача"),
    Section("deal", "Deal and trump", "Сдача и козырь"),
    Section("declaring", "Declaring and exchanging (прикупка)", "Объявление игры и прикупка"),
    Section("redistribution", "Three or more cards of a suit", "Три и более карты одной масти"),
    Section("privileged", "The privileged card (the mushka)", "Преимущественная карта (мушка)"),
    Section("tricks", "Playing the tricks", "Розыгрыш взяток"),
    Section("end", "End of a game", "Конец игры"),
    Section("scoring", "Scoring: the record (запись)", "Счёт: запись"),
    Section("money", "Money: the pot (касса)", "Деньги: касса"),
    Section("special", "Special hands", "Особые руки"),
    Section("guarantees", "What the program guarantees", "Что гарантирует программа"),
)
"""Every section, in the order the rules are shown."""

SECTION_BY_ID: Final[dict[str, Section]] = {s.id: s for s in SECTIONS}

TAGS: Final[dict[str, tuple[str, str]]] = {
    "SEED": ("stated in a source text", "сказано в исходном тексте"),
    "RU": ("stated in another Russian source", "сказано в другом русском источнике"),
    "XC": ("taken from the French and English relatives", "взято из французской и английской родни"),
    "DEC": ("a decision of this project", "решение этого проекта"),
}
"""The source tags, with their meaning in English and Russian."""


# --- the rule texts ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RuleText:
    """One rule's statement: templates in English and Russian and its metadata.

    ``options`` lists the options the templates read; :func:`affecting_options`
    adds those whose specification names this rule.  ``overrides`` replaces
    the templates in a variant where the rule is superseded (C22 in mistigri).
    """

    id: str
    section: str
    tags: tuple[str, ...]
    en: str
    ru: str
    options: tuple[str, ...] = ()
    overrides: Mapping[str, tuple[str, str]] = field(default_factory=dict)

    def template(self, lang: str = "en", variant: str | None = None) -> str:
        """The template in ``lang``, as it reads in ``variant``."""
        pair = self.overrides.get(variant or "", (self.en, self.ru))
        return pair[1] if lang == "ru" else pair[0]

    @property
    def part(self) -> str:
        """The part of RULES the rule belongs to: ``N``, ``C``, ``MI``, ``K`` or ``G``."""
        return self.id.rstrip("0123456789")


def _r(rule_id: str, section: str, tags: str, en: str, ru: str, *options: str,
       overrides: Mapping[str, tuple[str, str]] | None = None) -> RuleText:
    return RuleText(rule_id, section, tuple(tags.split()), en, ru, options, overrides or {})


_TEXTS: Final[tuple[RuleText, ...]] = (
    # --- §0 cards and notation ----------------------------------------------------
    _r("N1", "notation", "DEC",
       "Suits: spades ♠ S (пики), clubs ♣ C (трефы), diamonds ♦ D (бубны), hearts ♥ H (черви). "
       "Ranks: 2 3 4 5 6 7 8 9 T J Q K A, where T is the ten (10 is accepted on input).",
       "Масти: пики ♠ (S), трефы ♣ (C), бубны ♦ (D), черви ♥ (H). "
       "Достоинства: 2 3 4 5 6 7 8 9 T J Q K A, где T — десятка (при вводе можно писать и 10); "
       "на русский лад пишут В — валет, Д — дама, К — король, Т — туз, а десятку — 10."),
    _r("N2", "notation", "DEC",
       "A card is written rank then suit in ASCII: AS, KC, TH, 7D. On screen it may show a suit "
       "symbol (K♣) or its Russian name (король треф). Input is read in any case and form: KC, Kc, "
       "K♣, 10C; a bad code is refused with a message that quotes it.",
       "Карта записывается латиницей: сначала достоинство, затем масть — AS, KC, TH, 7D. На экране "
       "её можно показать со значком масти (К♣) или по-русски (король треф). При вводе годится "
       "любой регистр и любая из этих форм: KC, Kc, K♣, К♣, 10C; неверная запись отвергается, и в "
       "сообщении приводится то, что было введено."),
    _r("N3", "notation", "DEC",
       "Decks: 32 cards (seven to ace), 36 (six to ace) or 52 (two to ace). This table plays with "
       "{deck}.",
       "Колоды: в 32 карты (от семёрки до туза), в 36 (от шестёрки) и в 52 (от двойки). За этим "
       "столом играют колодой в {deck}.",
       "deck", "deck_by_players"),
    _r("N4", "notation", "DEC",
       "A deal is fixed entirely by the order of the deck, listed top first. Cards are dealt one at "
       "a time, starting with the eldest (the player after the dealer) and going round in playing "
       "order, until everyone has 5. {n4_turnup}The rest of the deck ({talon}) is the talon "
       "(прикуп), always drawn from the top.",
       "Сдача целиком задаётся порядком карт в колоде, сверху вниз. Карты сдаются по одной, начиная "
       "с первой руки (игрока, следующего за сдающим) и дальше по порядку хода, пока у каждого не "
       "будет по 5 карт. {n4_turnup}Остаток колоды ({talon}) — прикуп (талон); из него всегда "
       "берут сверху.",
       "deck", "deck_by_players"),
    # --- §1 classic ---------------------------------------------------------------------
    _r("C1", "players", "SEED",
       "Three to seven players (this table: {players}).",
       "Играют от трёх до семи человек (за этим столом — {players}).",
       ),
    _r("C2", "players", "SEED DEC",
       "The deck depends on the number of players: {deck_table}. {c2_this}",
       "Колода берётся по числу играющих: {deck_table}. {c2_this}",
       "deck_by_players", "deck"),
    _r("C3", "players", "DEC",
       "Rank of the cards in every suit, trumps included, high to low: {ranks}.",
       "Старшинство карт в каждой масти, и в козырной тоже, от старшей к младшей: {ranks}.",
       "rank_order", "deck_by_players", "deck"),
    _r("C4", "deal", "XC",
       "The first dealer is drawn by lot; after each deal the next player in playing order "
       "deals{c4_same}.",
       "Первого сдающего определяет жребий; после каждой сдачи сдаёт следующий по порядку "
       "игрок{c4_same}.",
       "all_pass"),
    _r("C5", "deal", "SEED RU",
       "Each player gets 5 cards; then the next card is turned face up, and its suit is trump "
       "(козырь). The rest of the deck ({talon}) is the talon (прикуп).",
       "Сдаётся каждому по 5 карт; следующая карта открывается, и её масть — козырь. Остаток колоды "
       "({talon}) — прикуп.",
       "deck", "deck_by_players"),
    _r("C6", "deal", "XC",
       "{c6_body}",
       "{c6_body}",
       "dealer_takes_turnup", "can_discard_privileged"),
    _r("C7", "declaring", "SEED XC",
       "Starting with the eldest and ending with the dealer, each player in turn either passes "
       "(пас: he throws his hand in, takes no part in the deal and writes nothing) or stands, that "
       "is, plays. {c7_exchange}{c7_priv}",
       "Начиная с первой руки и кончая сдающим, каждый по очереди либо пасует (пас: бросает карты, "
       "в сдаче не участвует и ничего не пишет), либо играет. {c7_exchange}{c7_priv}",
       "max_exchange", "privileged_must_play"),
    _r("C8", "declaring", "DEC",
       "{c8_limit} Discards are dead: they are never shuffled back.",
       "{c8_limit} Сброшенные карты выходят из игры и обратно не замешиваются.",
       "max_exchange"),
    _r("C9", "declaring", "DEC",
       "If everybody passes, nobody scores; {c9_next}.",
       "Если все спасовали, никто ничего не пишет; {c9_next}.",
       "all_pass"),
    _r("C10", "declaring", "DEC",
       "{c10_body}",
       "{c10_body}",
       "lone_player"),
    _r("C11", "privileged", "SEED",
       "{Priv_name} ({priv}) is the privileged card, the mushka: it beats a trick of any "
       "suit (C12 says exactly how).",
       "{Priv_name} ({priv}) изображает мушку — это преимущественная карта: он перекрывает "
       "взятку любой масти (как именно — в C12)."),
    _r("C12", "privileged", "DEC",
       "{Priv_name} beats every card that is not a trump, whatever suit was led; {c12_trumps} "
       "{c12_free} It is still a card of its suit: when it is led, {priv_suit} are the led suit, "
       "and a player whose only {priv_suit_one} it is holds the led suit.",
       "{Priv_name} бьёт любую некозырную карту, с какой бы масти ни зашли; {c12_trumps} "
       "{c12_free} При этом он остаётся картой своей масти: если зашли с него, требуемая масть — "
       "{priv_suit}, а у игрока, для которого он — единственная {priv_suit_one} карта, требуемая "
       "масть есть.",
       "privileged_beats_trumps", "privileged_free_play"),
    _r("C13", "tricks", "DEC",
       "The first standing player counting from the eldest leads to the first trick; the winner of "
       "each trick leads to the next. Five tricks are played.",
       "На первую взятку ходит первый из играющих, считая от первой руки; взявший взятку ходит на "
       "следующую. Разыгрываются пять взяток."),
    _r("C14", "tricks", "DEC",
       "{c14_body}",
       "{c14_body}",
       "must_follow", "must_trump_if_void", "must_head_trick", "must_overtrump",
       "privileged_free_play"),
    _r("C15", "tricks", "DEC",
       "The trick goes to the {priv_name} if it wins by C12; otherwise to the highest trump; "
       "otherwise to the highest card of the led suit.",
       "Взятку берёт {priv_name}, если он побеждает по C12; иначе — старший козырь; иначе — старшая "
       "карта требуемой масти.",
       "privileged_beats_trumps"),
    _r("C16", "scoring", "RU",
       "Every player's record (запись) starts at {initial_record} and is written off (списывается) "
       "towards zero; whoever writes his record off first wins.",
       "Запись каждого игрока начинается с {initial_record} и списывается к нулю; выигрывает "
       "тот, кто первым спишет свою запись.",
       "initial_record"),
    _r("C17", "scoring", "DEC",
       "Each trick taken writes off {trick_value} from the taker's record.{c17_priv}",
       "За каждую взятку взявший списывает со своей записи {trick_value}.{c17_priv}",
       "trick_value", "privileged_bonus"),
    _r("C18", "scoring", "RU",
       "A standing player who takes no trick adds a remiz (ремиз) of {remiz_points} to his record.{c18_priv}",
       "Играющий, не взявший ни одной взятки, пишет себе ремиз в {remiz_points}.{c18_priv}",
       "remiz", "privileged_remiz"),
    _r("C19", "scoring", "DEC",
       "Players who passed neither write off nor add anything.",
       "Спасовавшие ничего не списывают и ничего не пишут."),
    _r("C20", "scoring", "DEC",
       "The partie (партия) ends after the deal in which some record reaches 0 or less. The lowest "
       "record wins; a tie goes to the earlier seat counting from the eldest of that deal. Players "
       "at 0 or below pay nothing under C21.",
       "Партия кончается после той сдачи, в которой чья-нибудь запись дошла до нуля или ниже. "
       "Выигрывает тот, у кого запись меньше всех; при равенстве — тот, кто сидит ближе к первой "
       "руке этой сдачи. Кто списал запись до нуля или ниже, по C21 ничего не платит."),
    _r("C21", "scoring", "SEED DEC",
       "The winner takes all the records (берёт с игроков все записи): every other player pays him "
       "{stake} for each point of his record that is left, if any. A new partie then starts with "
       "fresh records. When a special hand ends the partie (C22, MI13), the stopped deal scores "
       "nothing and the records are settled as they stood before it.",
       "Выигравший берёт с игроков все записи: каждый партнёр платит ему по {stake} за каждое "
       "очко, оставшееся в его записи, если оно есть. Затем начинается новая партия со свежими "
       "записями. Если партию кончила особая рука (C22, MI13), остановленная сдача не "
       "засчитывается, и рассчитываются по записям, какими они были до неё.",
       "stake"),
    _r("C22", "special", "DEC",
       "{c22_body} Five spades with the ace of spades count as four spades and the ace of spades. "
       "This is how the Mushka-mistigri text treats cards of one suit, with the ace of spades in the "
       "place of the K♣. Hands are checked right after the deal and right after each player's "
       "declaration (for the dealer, his take of the turned-up card and his declaration together); "
       "a hand that wins the mushka takes precedence over the flushes of that deal. If several hands "
       "that win the mushka appear at once, the best wins: by the suit of the four (or of the five) "
       "in the order of MI10, ♠ < ♣ < ♦ < ♥, then by the card points of MI11 over all five cards, "
       "then the earlier seat from the eldest. Of several flushes only the best is paid, in the "
       "same order (MI10-MI12).",
       "{c22_body} Пять пик с пиковым тузом считаются четырьмя пиками и пиковым тузом. Так текст "
       "мушки-мистигри обходится с картами одной масти, только вместо короля треф здесь пиковый "
       "туз. Руки проверяются сразу после сдачи и сразу после объявления каждого игрока (у "
       "сдающего — взятие открытой карты вместе с объявлением); рука, выигрывающая мушку, в этой "
       "сдаче важнее одномастных. Если рук, выигрывающих мушку, сразу несколько, выигрывает лучшая: "
       "по масти четырёх карт (или пяти) в порядке MI10 ♠ < ♣ < ♦ < ♥, затем по очкам всех пяти "
       "карт по MI11, затем тот, кто ближе к первой руке. Из нескольких одномастных оплачивается "
       "только лучшая, в том же порядке (MI10-MI12).",
       "flush", "privileged_four", "flush_payment",
       overrides={"mistigri": (
           "This rule does not apply in мушка-мистигри: MI9 and MI13 take its place (MI14).",
           "В мушке-мистигри это правило не действует: вместо него — MI9 и MI13 (MI14).",
       )}),
    # --- §2 mistigri ----------------------------------------------------------------------
    _r("MI1", "players", "DEC",
       "Three to seven players; the deck follows the number of players as in C2 (this table: "
       "{players}, {deck}).",
       "Играют от трёх до семи человек; карты берутся по числу играющих, как в C2 (за этим "
       "столом {players}, колода в {deck}).",
       "deck_by_players", "deck"),
    _r("MI2", "players", "SEED",
       "Rank in every suit, trumps too, high to low: {ranks}.{mi2_ace}",
       "Старшинство в каждой масти, и в козырной тоже, от старшей к младшей: {ranks}.{mi2_ace}",
       "rank_order", "deck_by_players", "deck"),
    _r("MI3", "privileged", "SEED",
       "The privileged card is the king of clubs (K♣) instead of the A♠; it does exactly what the "
       "A♠ does in C11 and C12.",
       "Преимущественной картой считается король треф (К♣) вместо пикового туза; значение его "
       "точно такое же, как в C11 и C12."),
    _r("MI4", "privileged", "SEED DEC",
       "{mi4_body}",
       "{mi4_body}",
       "privileged_beats_trumps"),
    _r("MI5", "declaring", "DEC",
       "A player “held the K♣” if he had it in hand when trick play began. {mi5_discard}",
       "«Имел короля треф» — значит держал его на руках, когда начался розыгрыш взяток. "
       "{mi5_discard}",
       "can_discard_privileged"),
    _r("MI6", "scoring", "SEED",
       "A standing player who held the K♣ and took no trick writes a remiz of {priv_remiz}; any "
       "other standing player with no trick writes {remiz_points}.",
       "Играющий, имевший короля треф и не взявший ни одной взятки, пишет ремиз в "
       "{priv_remiz}; такой же игрок, у которого короля треф не было, пишет ремиз только в "
       "{remiz_points}.",
       "privileged_remiz", "remiz"),
    _r("MI7", "scoring", "SEED",
       "{mi7_body}",
       "{mi7_body}",
       "privileged_bonus"),
    _r("MI8", "declaring", "SEED",
       "{mi8_body}",
       "{mi8_body}",
       "privileged_must_play", "dealer_takes_turnup"),
    _r("MI9", "special", "SEED",
       "{mi9_body}",
       "{mi9_body}",
       "flush", "flush_payment"),
    _r("MI10", "special", "SEED DEC",
       "If several players hold five of a suit in one deal, only the best is paid: the higher suit "
       "wins, in the order low to high ♠ spades < ♣ clubs < ♦ diamonds < ♥ hearts. The trump suit "
       "gives no priority.",
       "Если в одной сдаче одномастные карты окажутся у нескольких игроков, плату получает только "
       "тот, у кого карты старшей масти. Порядок мастей по возрастающей: пики, трефы, бубны и самая "
       "старшая — черви. Козырная масть преимущества не даёт."),
    _r("MI11", "special", "SEED DEC",
       "Two flushes of the same suit (possible only with 52 cards): the one with more card points "
       "wins, counting K 5, Q 4, J 2, A 1 and every other card its pip value. Still equal: the "
       "earlier seat from the eldest.",
       "Если одномастные карты одной и той же масти пришли к двоим (это возможно только в колоде в "
       "52 карты), выигрывает тот, у кого больше очков на картах: король ценится в пять, дама — в "
       "четыре, валет — в два, туз — в одно, а остальные карты — по своей обычной стоимости. Если и "
       "очков поровну — тот, кто ближе к первой руке."),
    _r("MI12", "special", "DEC",
       "The flushes that compete are all hands that were five of a suit right after the deal or "
       "right after their owner's declaration (stand or exchange). The payment is settled once, "
       "when the declarations are over, and nobody is paid more than once.",
       "Соревнуются все руки, которые были одномастными сразу после сдачи или сразу после "
       "объявления их владельца (игры или прикупки). Плата рассчитывается один раз, когда "
       "объявления закончены, и никто не получает её дважды."),
    _r("MI13", "special", "SEED DEC",
       "{mi13_body}",
       "{mi13_body}",
       "privileged_four", "flush", "flush_payment"),
    _r("MI14", "special", "DEC",
       "C22 does not apply in мушка-мистигри: MI9 and MI13 take its place.",
       "Правило C22 в мушке-мистигри не действует: вместо него — MI9 и MI13."),
    # --- §3 kopilka -----------------------------------------------------------------------
    _r("K1", "setup", "SEED",
       "Exactly four players, no more and no fewer.",
       "Играющих должно быть четверо — ни больше, ни меньше."),
    _r("K2", "setup", "SEED",
       "A short deck of 32 cards; rank in every suit, high to low: {ranks}.",
       "Колода малая, в 32 карты; старшинство в каждой масти, от старшей к младшей: {ranks}.",
       "rank_order"),
    _r("K3", "setup", "SEED",
       "A pot (касса, копилка) stands in the middle of the table. Before the session every player "
       "pays an ante (взнос) of {ante} into it.",
       "Посредине стола ставится касса, или копилка. Перед началом игры каждый вносит в неё "
       "взнос — {ante}.",
       "ante"),
    _r("K4", "setup", "SEED", "{k4_body}", "{k4_body}", "session_games"),
    _r("K5", "setup", "SEED",
       "Each player gets 5 cards; the other 12 are laid on the table as the talon (прикуп). There "
       "are no trumps and no turned-up card.",
       "Сдаётся каждому по 5 карт, остальные 12 кладут на стол для прикупки. Мушка-копилка "
       "разыгрывается без козырей; карта не открывается."),
    _r("K6", "redistribution", "SEED",
       "Right after the deal, in playing order from the eldest, every player with three or more "
       "cards of one suit must declare them; spades with the A♠ are no exception. Nothing can be "
       "hidden from this program, so the source's penalty for hiding the A♠ never arises.",
       "Сразу после сдачи, по порядку хода от первой руки, каждый, у кого три или больше карт одной "
       "масти, обязан их объявить: умалчивать о них нельзя, и пики с тузом не исключение. Утаить "
       "карты программа не даёт, поэтому штраф за утаённого пикового туза здесь не возникает."),
    _r("K7", "redistribution", "SEED DEC",
       "{k7_body} Each player is checked once, when his turn in playing order comes, with the hand "
       "he holds at that moment: a group made by a card he took counts, a group broken by his "
       "discard does not. Five cards of one suit are a group of five.",
       "{k7_body} Каждого игрока проверяют один раз, когда до него доходит очередь, по картам, что "
       "у него на руках в этот момент: группа, собранная взятой картой, считается, а разбитая "
       "сбросом — нет. Пять карт одной масти — это группа из пяти.",
       "redistribution"),
    _r("K8", "redistribution", "DEC",
       "The older procedure ({k8_state}): the owner's right-hand neighbour (the seat before him) "
       "draws two cards of the group at random; the owner takes two cards from the talon and gives "
       "the first drawn card to the seat after him and the second to the seat after that, who each "
       "discard one card, in that order.",
       "Более старинный вариант ({k8_state}): сосед владельца справа (сидящий перед ним) "
       "наудачу вытягивает из группы две карты; владелец берёт из прикупа две карты взамен, а "
       "вытянутые раздаёт: первую — следующему за собой игроку, вторую — следующему за тем; те "
       "по очереди сбрасывают по одной слабой карте.",
       "redistribution"),
    _r("K9", "privileged", "SEED",
       "The A♠ is the mushka: it beats a trick of any suit and may be played to any trick.",
       "Пиковый туз изображает мушку: он перекрывает взятку любой масти, и его можно положить на "
       "любую взятку."),
    _r("K10", "tricks", "DEC",
       "The eldest leads to the first trick, with any card.",
       "На первую взятку выходит первая рука, с любой карты."),
    _r("K11", "tricks", "SEED DEC",
       "Each other player in turn must either play a card of the led suit (or the A♠), or draw a "
       "card from the talon, or pass. Drawing is allowed only to a player with no card of the led "
       "suit while the talon is not empty: a drawn card of the led suit is played at once, any other "
       "card (even the A♠) is kept, and he passes. A card of another suit, other than the A♠, may "
       "never be played. The A♠ counts as a spade: when spades are led, a player whose only spade it "
       "is holds the led suit.",
       "Каждый следующий игрок по очереди обязан либо дать карту той же масти (или пикового туза), "
       "либо обратиться к прикупке, либо сказать «пас». Прикупать можно, только если требуемой "
       "масти на руках нет и прикуп не пуст: прикупленная карта этой масти сразу идёт во взятку, а "
       "любую другую (даже пикового туза) игрок оставляет себе и пасует. Другую масть сносить "
       "нельзя, кроме пикового туза. Пиковый туз — тоже пика: если зашли с пик и это единственная "
       "пика игрока, требуемая масть у него есть."),
    _r("K12", "tricks", "SEED",
       "{k12_body}",
       "{k12_body}",
       "renege", "remiz"),
    _r("K13", "tricks", "SEED",
       "The trick goes to the A♠ if it was played, otherwise to the highest card of the led suit.",
       "Взятку берёт пиковый туз, если он сыгран, иначе старшая карта требуемой масти."),
    _r("K14", "tricks", "SEED",
       "A trick counts as soon as one other player has put a card on it, even if the other two "
       "passed.",
       "Взятка считается, если хоть один партнёр дал на неё нужную карту, пусть двое других и "
       "спасовали."),
    _r("K15", "tricks", "SEED",
       "If nobody puts a card on it, the leader takes his card back and the next player in playing "
       "order leads, with any suit.",
       "Если на ход никто не дал карты, первый игрок берёт свою карту обратно, а право выхода "
       "переходит к следующему за ним, с любой масти."),
    _r("K16", "tricks", "SEED DEC",
       "The winner of a trick leads next and must lead a suit other than the led suit of the trick "
       "he has just won (also when the A♠ won it); if he holds only that suit, he may lead it. After "
       "a take-back (K15) no suit is banned.",
       "Взявший взятку ходит следующим и должен ходить с новой масти — не с той, с которой зашли на "
       "только что взятую взятку (и когда её взял пиковый туз — тоже): два раза подряд одну масть "
       "проводить нельзя. Если другой масти нет, можно и с той же. После возврата карты (K15) "
       "запрета нет."),
    _r("K17", "tricks", "SEED",
       "Every trick is recorded with its suit (the led suit) and whether the A♠ took it.",
       "Каждую взятку записывают, упоминая её масть (масть захода) и то, взял ли её пиковый туз."),
    _r("K18", "end", "DEC",
       "A game ends as soon as a trick is complete and some player has no cards left: he is the one "
       "who got rid of his cards first (снёс свои карты раньше других). If several ran out in that "
       "trick, the first of them in the order the cards were played.",
       "Игра кончается, как только по окончании взятки у кого-нибудь не осталось карт: это он снёс "
       "свои карты раньше других. Если в этой взятке карты кончились у нескольких, первым считается "
       "тот, кто раньше положил карту."),
    _r("K19", "end", "DEC",
       "Deadlock: if four leads in a row are taken back (K15), the game ends with nobody out; every "
       "counted trick starts the count afresh.",
       "Тупик: если четыре хода подряд взяты обратно (K15), игра кончается, и никто не вышел; "
       "каждая засчитанная взятка начинает счёт заново."),
    _r("K20", "money", "SEED",
       "Each suit has a value agreed beforehand: ♥ hearts {value_h}, ♣ clubs {value_c}, ♦ diamonds "
       "{value_d}, ♠ spades {value_s}.",
       "Каждая масть оценивается по предварительному сговору: черви — {value_h}, трефы — {value_c}, "
       "бубны — {value_d}, пики — {value_s}.",
       "suit_values"),
    _r("K21", "money", "SEED",
       "A trick is worth the value of its suit; a trick taken by the A♠ counts double, a spade trick "
       "that the A♠ led included: then ♥ {double_h}, ♣ {double_c}, ♦ {double_d}, ♠ {double_s}.",
       "Взятка стоит столько, во сколько оценена её масть; перекрытая пиковым тузом считается "
       "вдвойне, в том числе пиковая, на которую туз вышел сам: черви — {double_h}, трефы — "
       "{double_c}, бубны — {double_d}, пики — {double_s}.",
       "suit_values"),
    _r("K22", "money", "SEED DEC",
       "At the end of each game, in this order: 1) every player who took no trick, the one who went "
       "out included, pays a remiz (ремиз) of {remiz} into the pot; 2) each trick is paid to its "
       "winner out of the pot, in the order of the tricks, and when the pot runs short the payment "
       "is cut to what is left; 3) every player except the one who went out pays {game_payment} into "
       "the pot (after a deadlock, K19, all four pay).",
       "В конце каждой игры, по порядку: 1) каждый, кто не взял ни одной взятки (и снёсший карты "
       "тоже), вносит в кассу ремиз — {remiz}; 2) каждая взятка оплачивается взявшему из кассы, в "
       "порядке взяток, а если в кассе не хватает, платится сколько осталось; 3) каждый, кроме "
       "снёсшего свои карты раньше других, вносит в кассу {game_payment} (после тупика, K19, платят "
       "все четверо).",
       "remiz", "game_payment", "ante"),
    _r("K23", "money", "SEED DEC", "{k23_body}", "{k23_body}", "session_games"),
    _r("K24", "money", "DEC",
       "Money is conserved: at every moment the players' balances and the pot add up to zero "
       "(balances start at 0, and paying into the pot lowers them). After a session the pot is "
       "empty. A single game played on its own starts like game 1 of a session, with every ante of "
       "{ante} paid.",
       "Деньги не пропадают и не берутся ниоткуда: в любой момент выигрыши и проигрыши игроков "
       "вместе с кассой дают в сумме ноль (вначале у каждого ноль, а взнос в кассу идёт ему в "
       "минус). После четвёртой игры "
       "касса пуста. Отдельная игра, сыгранная сама по себе, начинается как первая: все взносы по "
       "{ante} уже внесены.",
       "ante"),
    # --- §4 guarantees ------------------------------------------------------------------------
    _r("G1", "guarantees", "DEC",
       "Cards are conserved: hands, talon, turned-up card, discards, tricks and shown cards always "
       "make up exactly the deck.",
       "Карты не теряются и не появляются: руки, прикуп, открытая карта, сброс, взятки и открытые "
       "карты всегда составляют ровно колоду."),
    _r("G2", "guarantees", "DEC",
       "Every deal comes to an end, and while it is not over the list of legal actions is never "
       "empty.",
       "Каждая сдача доходит до конца, и пока она не окончена, список допустимых ходов не пуст."),
    _r("G3", "guarantees", "DEC",
       "A player's view never holds another player's hidden cards: only what the rules make public "
       "(played cards, the turned-up trump, shown hands), what he did or received himself, and "
       "counts of cards. In kopilka the owner of a group knows which of his cards were taken but not "
       "who took which; each taker knows only the card he took.",
       "Игроку видно только открытое по правилам (сыгранные карты, открытый козырь, открытые руки), "
       "то, что он сделал или получил сам, и сколько где карт; чужих закрытых карт он не видит. В "
       "копилке владелец группы знает, какие его карты взяты, но не знает кем; каждый взявший знает "
       "только свою карту."),
    _r("G4", "guarantees", "DEC",
       "Every result can be replayed from the stacked deck (N4), the chance outcomes and the list of "
       "actions, and comes out the same.",
       "Любой итог можно переиграть по подобранной колоде (N4), исходам случая и списку ходов — и "
       "получить то же самое."),
    _r("G5", "guarantees", "DEC",
       "An illegal or malformed action is refused with a message that names the rule (id and "
       "words), and nothing in the game changes.",
       "Недопустимый или неверно записанный ход отвергается с сообщением, где названо правило "
       "(номер и суть), и в игре ничего не меняется."),
)

RULE_TEXTS: Final[dict[str, RuleText]] = {t.id: t for t in _TEXTS}
"""Every rule statement by id, in the order of RULES (then G1-G5)."""

GUARANTEES: Final[tuple[str, ...]] = tuple(t.id for t in _TEXTS if t.part == "G")
"""The ids given to the guarantees of §4, in the order §4 lists them."""

MISTIGRI_CHANGES: Final[dict[str, tuple[str, ...]]] = {
    "C1": ("MI1",), "C2": ("MI1",), "C3": ("MI2",), "C6": ("MI5", "MI8"), "C7": ("MI8",),
    "C11": ("MI3",), "C12": ("MI3", "MI4"), "C15": ("MI4",), "C17": ("MI7",), "C18": ("MI6",),
    "C21": ("MI13",), "C22": ("MI14", "MI9", "MI13"),
}
"""§1 as modified by §2: the MI rules that change each C rule in mistigri."""

_PARTS: Final[dict[str, tuple[str, ...]]] = {
    "classic": ("N", "C"),
    "mistigri": ("N", "C", "MI"),
    "kopilka": ("N", "K"),
}


def rule_ids(variant: str, *, guarantees: bool = True) -> tuple[str, ...]:
    """The ids of the rules that apply to ``variant`` (a name or alias), in order."""
    parts = _PARTS[find_variant(variant).name] + (("G",) if guarantees else ())
    return tuple(t.id for t in _TEXTS if t.part in parts)


def affecting_options(rule_id: str, variant: str) -> tuple[str, ...]:
    """The options of ``variant`` that change rule ``rule_id`` (in option order).

    These are the options the rule's text reads and those whose specification
    names the rule.
    """
    name = find_variant(variant).name
    entry = RULE_TEXTS[rule_id]
    if name in entry.overrides:
        # A superseded rule (C22 in mistigri) is changed by nothing at this table.
        return ()
    wanted = set(entry.options) | {spec.name for spec in OPTIONS if rule_id in spec.rules}
    return tuple(o.name for o in options_for(name) if o.name in wanted)


def option_rules(option: str, variant: str) -> tuple[str, ...]:
    """The rules of ``variant`` that option ``option`` changes, in rule order."""
    return tuple(r for r in rule_ids(variant) if option in affecting_options(r, variant))


# --- rendering --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RenderedRule:
    """One rule as it reads at a given table, in one language."""

    id: str
    section: str
    tags: tuple[str, ...]
    text: str
    options: tuple[str, ...]
    """The options of this variant that affect the rule."""
    modified_by: tuple[str, ...] = ()
    """Mistigri: the MI rules that change this C rule."""
    changed: bool = False
    """Whether the text differs from the variant's defaults (``-o`` took effect)."""

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "id": self.id, "section": self.section, "tags": list(self.tags), "text": self.text,
            "options": list(self.options), "modified_by": list(self.modified_by),
            "changed": self.changed,
        }


def render_rules(rules: Rules, lang: str = "en", *, guarantees: bool = True) -> tuple[RenderedRule, ...]:
    """The rules of ``rules.variant`` in order, rendered for this table in ``lang``.

    ``changed`` marks the rules whose text differs from the same table with
    the variant's default options.
    """
    defaults = Rules.make(rules.variant, rules.players)
    ctx = _context(rules, lang)
    base = ctx if defaults == rules else _context(defaults, lang)
    out = []
    for rule_id in rule_ids(rules.variant, guarantees=guarantees):
        entry = RULE_TEXTS[rule_id]
        template = entry.template(lang, rules.variant)
        text = template.format(**ctx)
        out.append(RenderedRule(
            id=rule_id, section=entry.section, tags=entry.tags, text=text,
            options=affecting_options(rule_id, rules.variant),
            modified_by=MISTIGRI_CHANGES.get(rule_id, ()) if rules.is_mistigri else (),
            changed=text != template.format(**base),
        ))
    return tuple(out)


def render_rule(rules: Rules, rule_id: str, lang: str = "en") -> str:
    """The text of one rule at this table, in ``lang`` (any id, even of another variant)."""
    return RULE_TEXTS[rule_id].template(lang, rules.variant).format(**_context(rules, lang))


def section_title(section: str, lang: str = "en") -> str:
    """The title of section ``section`` in ``lang``."""
    return SECTION_BY_ID[section].title(lang)


# --- the values a template may use ----------------------------------------------------------

_LOWEST: Final = {32: Rank.SEVEN, 36: Rank.SIX, 52: Rank.TWO}
# The privileged cards in the Russian cases the texts need: nominative,
# genitive/accusative (cards are animate in Russian card talk: «взять туза»).
_PRIV_RU: Final = {
    "AS": ("пиковый туз", "пикового туза"),
    "KC": ("король треф", "короля треф"),
}
# Per suit: English plural and singular, Russian plural and feminine adjective.
_SUIT_WORDS: Final = (
    ("spades", "spade", "пики", "пиковая"),
    ("clubs", "club", "трефы", "трефовая"),
    ("diamonds", "diamond", "бубны", "бубновая"),
    ("hearts", "heart", "черви", "червонная"),
)


def ru_plural(n: int, one: str, few: str, many: str) -> str:
    """The Russian word form for ``n``: ``one`` (1, 21 …), ``few`` (2-4, 22 …) or ``many``."""
    rest = abs(n) % 100
    if 11 <= rest <= 19:
        return many
    if rest % 10 == 1:
        return one
    if 2 <= rest % 10 <= 4:
        return few
    return many


def _en_count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


_RU_WORDS: Final = {
    "player": ("игрок", "игрока", "игроков"),
    "card": ("карта", "карты", "карт"),
    "point": ("очко", "очка", "очков"),
}


def _ru_count(n: int, word: str) -> str:
    """``n`` and the Russian word for the English ``word`` in the right form (1 очко, 5 очков)."""
    one, few, many = _RU_WORDS[word]
    return f"{n} {ru_plural(n, one, few, many)}"


def _ranks(rules: Rules, lang: str) -> str:
    lowest = _LOWEST[rules.deck_size]
    ranks = [Rank.parse(ch) for ch in rules.rank_order]
    ranks = [r for r in ranks if r >= lowest]
    if lang == "ru":
        return ", ".join(r.name_in("ru") for r in ranks)
    return " ".join("10" if r == Rank.TEN else r.letter for r in ranks)


def _pick(lang: str, en: str, ru: str) -> str:
    return ru if lang == "ru" else en


def _context(rules: Rules, lang: str) -> dict[str, str]:
    """Every value a template may use, rendered for ``rules`` in ``lang``."""
    ru = lang == "ru"
    n = rules.players
    priv = rules.privileged
    trumps = rules.has_trumps
    talon = rules.deck_size - 5 * n - (1 if trumps else 0)
    priv_nom, priv_gen = _PRIV_RU.get(priv.code, (priv.name_in("ru"), priv.name_in("ru")))
    suit_pl, suit_one, suit_ru, suit_adj = _SUIT_WORDS[priv.suit]
    count = _ru_count if ru else _en_count
    priv_name = priv_nom if ru else priv.name_in("en")
    # Each value is already in ``lang``, so both templates of a rule name the same fields.
    c: dict[str, str] = {
        "players": count(n, "player"),
        "deck": count(rules.deck_size, "card"),
        "talon": count(talon, "card"),
        "ranks": _ranks(rules, lang),
        "priv": priv.display(lang),
        "priv_name": priv_name,
        "Priv_name": priv_name[0].upper() + priv_name[1:] if ru else "The " + priv_name,
        "priv_gen": priv_gen if ru else priv_name,
        "priv_suit": suit_ru if ru else suit_pl,
        "priv_suit_one": suit_adj if ru else suit_one,
        "stake": str(rules.stake),
        # «начинается с 30 очков»: the genitive after «с».
        "initial_record": (f"{rules.initial_record} {ru_plural(rules.initial_record, 'очка', 'очков', 'очков')}"
                           if ru else str(rules.initial_record)),
        "trick_value": count(rules.trick_value, "point"),
        "remiz": str(rules.remiz),
        "remiz_points": count(rules.remiz, "point"),
        "priv_remiz": count(rules.effective_privileged_remiz, "point"),
        # «не больше 5 карт», «до 1 карты»: the genitive after «до» and «больше».
        "max_exchange": (f"{rules.max_exchange} {ru_plural(rules.max_exchange, 'карты', 'карт', 'карт')}"
                         if ru else _en_count(rules.max_exchange, "card")),
        "ante": str(rules.ante),
        "game_payment": str(rules.effective_game_payment),
        "n4_turnup": _pick(lang, "Then the next card is turned face up as the trump card. ",
                           "Затем следующая карта открывается: это козырь. ") if trumps else "",
    }
    by_players = dict(rules.deck_by_players)
    if ru:
        c["deck_table"] = ", ".join(
            (f"{_ru_count(p, 'player')} — {_ru_count(d, 'card')}" if i == 0 else f"{p} — {d}")
            for i, (p, d) in enumerate(sorted(by_players.items())))
    else:
        c["deck_table"] = ", ".join(
            (f"{p} players: {d} cards" if i == 0 else f"{p}: {d}")
            for i, (p, d) in enumerate(sorted(by_players.items())))
    if rules.deck is not None:
        c["c2_this"] = _pick(
            lang, f"This table plays with {rules.deck} cards whatever the number of players (option deck).",
            f"За этим столом играют колодой в {_ru_count(rules.deck, 'card')} при любом числе игроков "
            "(настройка deck).")
    else:
        c["c2_this"] = _pick(
            lang, f"With {c['players']} this table plays with {rules.deck_size} cards.",
            f"За этим столом {c['players']}, колода в {c['deck']}.")
    c.update(_declaring(rules, lang, c))
    c.update(_play(rules, lang, c))
    c.update(_special(rules, lang))
    c.update(_kopilka(rules, lang))
    return c


def _declaring(rules: Rules, lang: str, c: Mapping[str, str]) -> dict[str, str]:
    """Fragments of C4, C6-C10, MI5 and MI8."""
    out: dict[str, str] = {}
    same = rules.all_pass is AllPass.SAME_DEALER
    out["c4_same"] = _pick(
        lang, " (after a deal that everybody passed, the same dealer deals again, C9)" if same else "",
        " (если все спасовали, сдаёт снова тот же, C9)" if same else "")
    out["c9_next"] = _pick(
        lang,
        "the same dealer deals again (option all_pass=same_dealer)" if same else "the deal passes to the next player",
        "сдаёт снова тот же сдающий (настройка all_pass=same_dealer)" if same else "сдаёт следующий игрок")
    if rules.dealer_takes_turnup:
        not_priv_en = f" (never the {rules.privileged.symbol}, MI5)" if not rules.can_discard_privileged else ""
        not_priv_ru = f" (но не {c['priv_gen']}, MI5)" if not rules.can_discard_privileged else ""
        out["c6_body"] = _pick(
            lang,
            "Dealer's privilege: when his turn to declare comes, the dealer may take the turned-up card "
            f"into his hand, discarding one of his own cards face down{not_priv_en}. He is then "
            "committed to play: he stands as in C7, with or without an exchange, and may not pass. The "
            "trump suit does not change.",
            "Право сдающего: когда до него доходит очередь объявлять, он может взять открытую карту "
            f"себе, сбросив взамен одну свою карту крапом вверх{not_priv_ru}. Взяв её, он обязан "
            "играть: объявляет игру по C7, с прикупкой или без, и пасовать уже не может. Козырная "
            "масть от этого не меняется.")
    else:
        out["c6_body"] = _pick(
            lang, "The dealer may not take the turned-up card (option dealer_takes_turnup is off).",
            "Брать открытую карту сдающему нельзя (настройка dealer_takes_turnup выключена).")
    k = rules.max_exchange
    if k:
        out["c7_exchange"] = _pick(
            lang,
            f"A player who stands may at the same time exchange (прикупить) up to {_en_count(k, 'card')}: he "
            "discards the cards he does not want face down and draws as many from the top of the talon. "
            "Each player exchanges once only, in his turn, and an exchange commits him to play; the first "
            "players may use up the talon.",
            f"Играющий может тут же прикупить до {k} {ru_plural(k, 'карты', 'карт', 'карт')}: сбрасывает "
            "ненужные карты крапом вверх и берёт столько же сверху из прикупа. Прикупают один раз, в свою "
            "очередь, и кто прикупил, тот играет; первые игроки могут выбрать весь прикуп.")
    else:
        out["c7_exchange"] = _pick(
            lang, "Nobody exchanges cards (option max_exchange is 0).",
            "Прикупать нельзя (настройка max_exchange равна 0).")
    out["c8_limit"] = _pick(
        lang, f"Nobody exchanges more than {c['max_exchange']}, nor more than the talon still holds.",
        f"Прикупить можно не больше {c['max_exchange']} и не больше, чем осталось в прикупе.",
    ) if k else _pick(lang, "Nobody exchanges (option max_exchange is 0).",
                      "Прикупки нет (настройка max_exchange равна 0).")
    if rules.lone_player is LonePlayer.DEALER_MUST_PLAY:
        out["c10_body"] = _pick(
            lang,
            "If exactly one player before the dealer has stood, the dealer may not pass, and the two "
            "of them play the deal out (as in Loo; option lone_player=dealer_must_play). If the dealer "
            "alone stands, he takes all five tricks without play.",
            "Если до сдающего играть вызвался ровно один игрок, сдающий не может пасовать, и они "
            "разыгрывают сдачу вдвоём (как в лу; настройка lone_player=dealer_must_play). Если играет "
            "один сдающий, он берёт все пять взяток без розыгрыша.")
    else:
        out["c10_body"] = _pick(
            lang, "If exactly one player stands, he takes all five tricks without play.",
            "Если играет только один, он берёт все пять взяток без розыгрыша.")
    if rules.can_discard_privileged:
        out["mi5_discard"] = _pick(
            lang, "The K♣ may be discarded in an exchange (option can_discard_privileged).",
            "Короля треф можно сбросить при прикупке (настройка can_discard_privileged).")
    else:
        out["mi5_discard"] = _pick(
            lang, "The K♣ may not be discarded in an exchange, nor by the dealer who takes the "
            "turned-up card.",
            "Сбрасывать короля треф при прикупке нельзя — и сдающему, берущему открытую карту, тоже.")
    out["c7_priv"] = _pick(
        lang, f" A player holding the {rules.privileged.symbol} may not pass (MI8).",
        f" Игрок, к которому пришёл {c['priv_name']}, не имеет права на пас (MI8).",
    ) if rules.privileged_must_play else ""
    if rules.privileged_must_play:
        take_en = (" If the K♣ is the turned-up card, the dealer may take it (C6) and must then play."
                   if rules.dealer_takes_turnup else "")
        take_ru = (" Если открытая карта — король треф, сдающий может взять его (C6) и тогда обязан играть."
                   if rules.dealer_takes_turnup else "")
        out["mi8_body"] = _pick(
            lang, "A player to whom the K♣ has come may not pass." + take_en,
            "Игрок, к которому пришёл король треф, не имеет права на пас." + take_ru)
    else:
        out["mi8_body"] = _pick(
            lang, "A player holding the K♣ may pass (option privileged_must_play is off).",
            "Игрок с королём треф может спасовать (настройка privileged_must_play выключена).")
    return out


def _play(rules: Rules, lang: str, c: Mapping[str, str]) -> dict[str, str]:
    """Fragments of C12, C14, MI2, MI4 and MI7."""
    out: dict[str, str] = {}
    if rules.privileged_beats_trumps:
        out["c12_trumps"] = _pick(
            lang,
            f"it beats trumps too (option privileged_beats_trumps), and when {c['priv_suit']} are "
            "trumps it is the highest trump.",
            f"он бьёт и козырей (настройка privileged_beats_trumps), а когда козыри — {c['priv_suit']}, "
            "он старший козырь.")
    else:
        out["c12_trumps"] = _pick(
            lang,
            f"any trump beats it, unless {c['priv_suit']} are trumps: then it is simply the highest "
            "trump.",
            f"любой козырь его бьёт, если только козыри не {c['priv_suit']}: тогда он просто старший "
            "козырь.")
    if rules.privileged_free_play:
        out["c12_free"] = _pick(
            lang, "It may be played to any trick, even by a player who could follow suit.",
            "Его можно положить на любую взятку, даже имея требуемую масть.")
    else:
        out["c12_free"] = _pick(
            lang, "It is played under C14 like any other card (option privileged_free_play is off).",
            "Кладут его по общим правилам C14, как любую другую карту (настройка privileged_free_play "
            "выключена).")
    parts: list[str] = []
    parts.append(_pick(lang, "A player must follow suit if he can.",
                       "Игрок обязан ходить в масть, если она у него есть.")
                 if rules.must_follow else
                 _pick(lang, "A player need not follow suit (option must_follow is off).",
                       "Ходить в масть не обязательно (настройка must_follow выключена)."))
    parts.append(_pick(lang, "If he has no card of the led suit, he must play a trump if he has one; otherwise "
                       "any card.",
                       "Если требуемой масти нет, надо бить козырем, если он есть; иначе кладут любую "
                       "карту.")
                 if rules.must_trump_if_void else
                 _pick(lang, "If he has no card of the led suit, he may play any card (option must_trump_if_void "
                       "is off).",
                       "Если требуемой масти нет, можно класть любую карту (настройка must_trump_if_void "
                       "выключена)."))
    if rules.must_overtrump:
        parts.append(_pick(
            lang, "If he has no card of the led suit and the trick already holds a trump, he must play a higher "
            "trump if he has one, whatever the duty to trump says, and may then play nothing else (option "
            "must_overtrump).",
            "Если требуемой масти нет, а во взятке уже лежит козырь, надо перебить его старшим козырем, "
            "если такой есть, что бы ни говорила обязанность бить козырем, и тогда ничего другого класть "
            "нельзя (настройка must_overtrump)."))
    parts.append(_pick(
        lang, "Among the cards these rules allow, he must play one that would win the trick as it stands, "
        "if he has one (option must_head_trick).",
        "Из разрешённых карт игрок обязан положить ту, что берёт взятку, если такая есть (настройка "
        "must_head_trick).")
        if rules.must_head_trick else
        _pick(lang, "He is not obliged to beat the cards already played.",
              "Перебивать положенные карты не обязательно."))
    if rules.privileged_free_play:
        parts.append(_pick(
            lang, f"The {c['priv']} stays playable whatever these rules say (C12).",
            f"{c['Priv_name']} можно положить при любых этих ограничениях (C12)."))
    out["c14_body"] = " ".join(parts)
    order = rules.rank_order
    ace_between = (
        all(ch in order for ch in "TJA")
        and order.index("A") == order.index("T") - 1
        and order.index("J") == order.index("A") - 1
    )
    out["mi2_ace"] = _pick(
        lang, " The ace ranks between the ten and the jack: it beats every card up to the ten, and the jack, "
        "queen and king beat it.",
        " Туз стоит между десяткой и валетом: он перекрывает все карты до десятки включительно, а валет, "
        "дама и король перекрывают его.") if ace_between else ""
    if rules.privileged_beats_trumps:
        out["mi4_body"] = _pick(
            lang, "With option privileged_beats_trumps the K♣ beats trumps too; when clubs are trumps it is "
            "simply the highest trump.",
            "По настройке privileged_beats_trumps король треф бьёт и козырей; когда козыри — трефы, он "
            "просто старший козырь.")
    else:
        out["mi4_body"] = _pick(
            lang, "The K♣ can be beaten by a trump: any trump beats it unless clubs are trumps. In particular, "
            "when the K♣ is led, a player with no clubs trumps it under C14.",
            "Король треф при отсутствии трефовой масти может быть перекрыт козырем: любой козырь бьёт его, "
            "если только козыри не трефы. В частности, когда выходят с короля треф, игрок без треф бьёт "
            "его козырем по C14.")
    bonus = rules.privileged_bonus
    out["c17_priv"] = _pick(
        lang, f" A player who held the {c['priv']} and took at least one trick writes off "
        f"{_en_count(bonus, 'point')} more (MI7).",
        f" Игрок, имевший {c['priv_gen']} и взявший хотя бы одну взятку, списывает ещё "
        f"{_ru_count(bonus, 'point')} (MI7).",
    ) if bonus else ""
    priv_remiz = rules.effective_privileged_remiz
    out["c18_priv"] = _pick(
        lang, f" One who held the {c['priv']} when trick play began writes {c['priv_remiz']} "
        "instead (MI6).",
        f" Кто имел {c['priv_gen']}, когда начался розыгрыш, пишет вместо этого ремиз в "
        f"{c['priv_remiz']} (MI6).",
    ) if priv_remiz != rules.remiz else ""
    if bonus:
        out["mi7_body"] = _pick(
            lang, f"A player who held the K♣ and took at least one trick, with any card, writes off "
            f"{_en_count(bonus, 'extra point')} besides the points for his tricks. A lone player (C10) who "
            "holds the K♣ gets them too.",
            "Игрок, имевший короля треф и взявший хотя бы одну взятку — пусть даже не королём, а любой "
            f"картой, — списывает с записи {bonus} {ru_plural(bonus, 'лишнее очко', 'лишних очка', 'лишних очков')}, "
            "кроме очков, списываемых за взятки. Одиночный игрок (C10) с королём треф получает их тоже.")
    else:
        out["mi7_body"] = _pick(
            lang, "Holding the K♣ earns nothing extra (option privileged_bonus is 0).",
            "Король треф лишних очков не даёт (настройка privileged_bonus равна 0).")
    return out


def _special(rules: Rules, lang: str) -> dict[str, str]:
    """Fragments of C22, MI9 and MI13."""
    priv_en = rules.privileged.symbol
    pay = rules.flush_payment

    def effect(mode: FlushMode, option: str) -> str:
        if mode is FlushMode.WINS_MUSHKA:
            return _pick(lang, "the holder must show his hand and wins the mushka at once; the deal stops and C21 "
                         "applies.",
                         "игрок обязан открыть карты и сразу выигрывает мушку; сдача останавливается, "
                         "действует C21.")
        if mode is FlushMode.SIDE_PAYMENT:
            return _pick(lang, f"the holder must show his hand and collects {pay} from every other player, kept "
                         "apart from the records as in MI9-MI12; the deal goes on.",
                         f"игрок обязан открыть карты и берёт с каждого партнёра по {pay}; эта плата "
                         "записывается отдельно, как в MI9-MI12, а игра продолжается.")
        return _pick(lang, f"nothing special (option {option}=none).",
                     f"ничего особенного (настройка {option}=none).")

    priv_nom = _PRIV_RU.get(rules.privileged.code, (rules.privileged.name_in("ru"), ""))[0]
    when = _pick(lang, " in a player's hand right after the deal or right after his exchange: ",
                 " на руках у игрока сразу после сдачи или сразу после его прикупки: ")
    flush, four_mode = rules.flush, rules.four_mode
    if flush == four_mode:
        body = _pick(lang, f"Five cards of one suit, or four of one suit and the {priv_en},",
                     f"Пять карт одной масти или четыре карты одной масти и {priv_nom}")
        body += when + effect(flush, "flush")
    else:
        five = _pick(lang, "Five cards of one suit", "Пять карт одной масти")
        four = _pick(lang, f"Four cards of one suit and the {priv_en}",
                     f"Четыре карты одной масти и {priv_nom}")
        body = five + when + effect(flush, "flush") + " " + four + ": " + effect(four_mode, "privileged_four")
    out = {"c22_body": body}
    if rules.flush is FlushMode.SIDE_PAYMENT:
        out["mi9_body"] = _pick(
            lang, "A player who has five cards of one suit after the deal or after an exchange must show his "
            f"hand and collects {pay} from every other player (those who passed too), kept in a separate "
            "side account; the records are untouched and the deal goes on. A hand shown this way stays "
            "public. He is paid even if he then passes, and even if everybody passes.",
            "Если у игрока при сдаче или после прикупки пять карт одной масти, он должен открыть карты и "
            f"взять со всех партнёров (и со спасовавших тоже) заранее оговорённую плату — по {pay}; она "
            "записывается им отдельно. Игровые же записи остаются нетронутыми, и игра продолжается. "
            "Открытые карты остаются открытыми; плату он получает, даже если потом спасует, и даже если "
            "спасуют все.")
    elif rules.flush is FlushMode.WINS_MUSHKA:
        out["mi9_body"] = _pick(
            lang, "A player who has five cards of one suit after the deal or after an exchange shows his hand "
            "and wins the mushka at once, as in C22 (option flush=wins_mushka).",
            "Игрок, у которого при сдаче или после прикупки пять карт одной масти, открывает карты и сразу "
            "выигрывает мушку, как в C22 (настройка flush=wins_mushka).")
    else:
        out["mi9_body"] = _pick(lang, "Five cards of one suit earn nothing (option flush=none).",
                                "Пять карт одной масти ничего не дают (настройка flush=none).")
    if four_mode is FlushMode.WINS_MUSHKA:
        out["mi13_body"] = _pick(
            lang, "A player with four cards of one suit and the K♣ as the fifth wins the mushka: he takes all "
            "the records (C21) and a new partie begins. The hand is checked after the deal and after each "
            "declaration, like MI12; it stops the deal at once and takes precedence over MI9 in that deal. "
            "Five clubs with the K♣ count as four clubs and the K♣ (this rule, not MI9). If several hands "
            "win the mushka at once (possible with option flush=wins_mushka), the best wins by C22's order: "
            "the suit of the four, then card points, then the earlier seat from the eldest.",
            "Игрок, имеющий на руках четыре карты одной масти и короля треф пятым, выигрывает мушку, то "
            "есть берёт с игроков все записи (C21), и партия начинается снова. Рука проверяется после "
            "сдачи и после каждого объявления, как в MI12; сдача тут же останавливается, и в этой сдаче "
            "MI13 важнее MI9. Пять треф с королём треф считаются четырьмя трефами и королём (MI13, а не "
            "MI9). Если мушку сразу выигрывают несколько рук (это возможно с настройкой "
            "flush=wins_mushka), выигрывает лучшая в порядке C22: по масти четырёх карт, затем по очкам, "
            "затем тот, кто ближе к первой руке.")
    elif four_mode is FlushMode.SIDE_PAYMENT:
        out["mi13_body"] = _pick(
            lang, f"Four cards of one suit and the K♣ as the fifth are shown and paid like a flush: {pay} from "
            "every other player (MI9-MI12; option privileged_four).",
            "Четыре карты одной масти и король треф пятым открываются и оплачиваются как одномастные "
            f"карты: по {pay} с каждого партнёра (MI9-MI12; настройка privileged_four).")
    else:
        out["mi13_body"] = _pick(
            lang, "Four cards of one suit and the K♣ earn nothing (option privileged_four).",
            "Четыре карты одной масти и король треф ничего не дают (настройка privileged_four).")
    return out


def _kopilka(rules: Rules, lang: str) -> dict[str, str]:
    """Fragments of K4, K7, K8, K12, K20, K21 and K23."""
    out: dict[str, str] = {}
    if rules.session_games == 4:
        out["k4_body"] = _pick(
            lang, "A session is four games (deals); each player deals once.",
            "Копилка разыгрывается в четыре игры (сдачи); каждый сдаёт по одному разу.")
        out["k23_body"] = _pick(
            lang, "After game 4 the player who went out first in it takes the whole pot. If game 4 ended in "
            "deadlock, the pot is shared equally, and what cannot be divided goes one unit each from the "
            "eldest.",
            "После четвёртой игры кассовым остатком пользуется тот, кто первым сдал свои карты в ней. "
            "Если четвёртая игра кончилась тупиком, касса делится поровну, а неделимый остаток "
            "раздаётся по единице, начиная с первой руки.")
    else:
        out["k4_body"] = _pick(
            lang, "A short session of two games (deals), option session_games=2: the deal passes round "
            "from the first dealer, so he and the player after him deal once each.",
            "Короткая сессия из двух игр (сдач), настройка session_games=2: сдача идёт по кругу от "
            "первого сдающего, так что сдают по разу он и следующий за ним.")
        out["k23_body"] = _pick(
            lang, "After game 2, the last of the short session, the player who went out first in it takes "
            "the whole pot. If game 2 ended in deadlock, the pot is shared equally, and what cannot be "
            "divided goes one unit each from the eldest.",
            "После второй, последней игры короткой сессии кассовым остатком пользуется тот, кто первым "
            "сдал свои карты в ней. Если вторая игра кончилась тупиком, касса делится поровну, а "
            "неделимый остаток раздаётся по единице, начиная с первой руки.")
    values = rules.suit_values
    for index, letter in enumerate("scdh"):
        out[f"value_{letter}"] = str(values[index])
        out[f"double_{letter}"] = str(2 * values[index])
    old = rules.redistribution is Redistribution.OLD
    if old:
        out["k7_body"] = _pick(
            lang, "The group is shared out by the older procedure of K8 (option redistribution=old).",
            "Группа раздаётся по более старинному варианту K8 (настройка redistribution=old).")
        out["k8_state"] = _pick(lang, "played at this table: option redistribution=old",
                                "действует за этим столом: настройка redistribution=old")
    else:
        out["k7_body"] = _pick(
            lang, "The group is shared out: 1) the owner lays the whole group face down; 2) each of the other "
            "three players, in playing order from the seat after the owner, takes one of these cards at "
            "random (a chance event); 3) the cards nobody took go back to the owner; 4) the owner draws "
            "from the talon as many cards as were taken (fewer if the talon runs out); 5) then each taker, "
            "in the same order, discards one card of his choice face down, out of play.",
            "Одномастные карты раздаются так: 1) владелец кладёт всю группу на стол крапом вверх; 2) "
            "каждый из трёх других игроков по порядку хода, начиная со следующего за владельцем, берёт из "
            "неё одну карту наудачу (это случайное событие); 3) невзятые карты возвращаются владельцу; 4) "
            "владелец прикупает столько карт, сколько у него взяли (меньше, если прикуп кончился); 5) "
            "затем каждый взявший, в том же порядке, сбрасывает крапом вверх одну ненужную ему карту — "
            "она выходит из игры.")
        out["k8_state"] = _pick(lang, "option redistribution=old; not played at this table",
                                "настройка redistribution=old; за этим столом не действует")
    if rules.renege is Renege.FORBID:
        out["k12_body"] = _pick(
            lang, "A player who holds the led suit may not pass (option renege=forbid).",
            "Пасовать, имея требуемую масть, нельзя (настройка renege=forbid).")
    else:
        out["k12_body"] = _pick(
            lang, "A player may pass while holding the led suit, but it costs him a remiz (ремиз) of "
            f"{rules.remiz} into the pot at once.",
            "Игрок может спасовать, имея на руках требуемую масть, но тогда сразу вносит в кассу ремиз — "
            f"{rules.remiz}.")
    return out
