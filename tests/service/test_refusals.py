"""The engine's refusals reach members in their language (bot/service/refusals.py): every
message the engine raises (read from its sources) is in the edge's table or matches one
of its patterns, real refusals come out translated in German, French and Spanish, an
unknown text stays as it is, and the coach's reasons are the ones the UI translates."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot import i18n
from bot.engine import coach, get_preset
from bot.engine.fairness import CutError, cut_text
from bot.engine.rules import RulesError
from bot.service.refusals import MESSAGES, PATTERNS, refusal

ENGINE = Path(__file__).resolve().parents[2] / "bot" / "engine"
#: the engine's errors whose words reach members
REFUSALS = {"IllegalAction", "CutError", "RulesError"}


def raised() -> tuple[set[str], list[str]]:
    """The engine's refusals: the constant messages, and the source of each message
    made with a value (an f-string) or passed in (``_verify_chooser``'s ``other``)."""
    constants: set[str] = set()
    built: list[str] = []

    def collect(node: ast.expr) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            constants.add(node.value)
        elif isinstance(node, ast.IfExp):
            collect(node.body)
            collect(node.orelse)
        else:
            built.append(ast.unparse(node))

    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            if isinstance(node.func, ast.Name) and node.func.id in REFUSALS:
                collect(node.args[0])
            elif isinstance(node.func, ast.Attribute) and node.func.attr == "_verify_chooser":
                collect(node.args[3])
    return constants, built


def test_every_constant_refusal_of_the_engine_is_in_the_table():
    constants, built = raised()
    assert len(constants) > 50
    assert sorted(constants - MESSAGES) == []
    # those made with a value: each has its pattern (a new one must get one, and a case
    # in the test below)
    assert sorted(set(built)) == sorted([
        "f'A {op.kind} is not an action of this game.'", "f'A cut is at most {CUT_MAX} characters.'",
        "f'{self.name} must be true or false'", "f'unknown rules preset {name!r}'",
        "f\"{self.name} must be {' or '.join(names)}\"",
        "f'{self.name} must be a whole number from {self.low} to {self.high}'",
        "f'unknown option {key!r} for {self.name}'", "other",
        "f'Exchange 1 to {self.rules.swap_max} cards.'"])


def error_of(call) -> Exception:
    try:
        call()
    except (CutError, RulesError) as exc:
        return exc
    raise AssertionError("no refusal")


@pytest.mark.parametrize(("lang", "expected"), [
    ("de", ["Ein Abheben hat höchstens 32 Zeichen.", "unbekannte Option 'pounce' für foster",
            "unbekannte Regelvorgabe 'nope'", "Wechsle 1 bis 3 Karten.",
            "Diese Karte hast du nicht."]),
    ("fr", ["Une coupe a au plus 32 caractères.", "option 'pounce' inconnue pour foster",
            "préréglage de règles 'nope' inconnu", "Échangez de 1 à 3 cartes.",
            "Vous n'avez pas cette carte."]),
    ("es", ["Un corte tiene como mucho 32 caracteres.", "opción 'pounce' desconocida para foster",
            "preajuste de reglas 'nope' desconocido", "Cambia de 1 a 3 cartas.",
            "No tienes esa carta."]),
])
def test_real_refusals_come_out_in_each_language(lang, expected):
    errors = [error_of(lambda: cut_text("x" * 40)),
              error_of(lambda: get_preset("foster", {"pounce": True})),
              error_of(lambda: get_preset("nope")),
              ValueError("Exchange 1 to 3 cards."), ValueError("You do not hold that card.")]
    with i18n.use(lang):
        assert [refusal(e) for e in errors] == expected
    assert refusal(errors[0]) == "A cut is at most 32 characters."  # English: the engine's own
    assert refusal(ValueError("something new")) == "something new"


def test_a_choice_of_values_is_listed_in_the_language():
    exc = RulesError("direction must be left or right or across")
    with i18n.use("de"):
        assert refusal(exc) == "direction muss left, right oder across sein"
    with i18n.use("es"):
        assert refusal(RulesError("open_trading needs direct_trading")) == \
            "open_trading necesita direct_trading"
    assert all(template for _pattern, template in PATTERNS)


def test_the_coach_s_reasons_are_the_ones_the_ui_translates():
    from bot.ui import hints
    assert hints.REASONS == coach.REASONS
