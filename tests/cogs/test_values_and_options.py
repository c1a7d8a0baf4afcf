"""Select values through the real cog (one encoding: ``bot.engine.choices``) and
the ``/commerce new`` options, whose bounds and descriptions are the rules' own
table (``OPTIONS``, docs/RULES.md §2.8)."""

from __future__ import annotations

from bot.engine import OPTIONS, PRESETS, get_preset
from bot.service import TableService
from cogs.tables import NEW_OPTIONS, Tables
from tests.cogs.helpers import answer_text, emit_component, open_table, private, select_values


async def test_a_forged_select_value_gets_a_short_answer_and_changes_nothing(simcord_env, bots):
    env = simcord_env
    guild, table, actors, lobby = await open_table(env, bots)
    await actors[0].click(lobby, label="Start")
    actor = table.actor_to_act()
    res = await actor.click(table.table_message(), label="Trade")
    select_id = next(c["custom_id"] for row in res.response.components
                     for c in row["components"])
    ops = len(table.live.deal.operations)
    for forged in ("Zz", "Kd@1", "Kd-2c", "drawn", ""):
        result = emit_component(env, actor, res.response.message, select_id, [forged])
        await env.settle()
        assert private(result) and answer_text(result) == "That choice is not valid."
    assert len(table.live.deal.operations) == ops
    done = await actor.select(res.response, [select_values(res)[0]])  # the menu still works
    assert "You traded" in done.response.content
    assert len(table.live.deal.operations) > ops


def test_the_new_command_takes_its_bounds_and_descriptions_from_the_rules_table():
    params = {p.name: p for p in Tables.new.parameters}
    assert set(NEW_OPTIONS) <= set(params)
    for name in NEW_OPTIONS:
        option, param = OPTIONS[name], params[name]
        assert param.description == option.description, name
        assert not param.required
        if option.kind == "whole":
            assert (param.min_value, param.max_value) == (option.low, option.high), name
        if option.kind == "choice":
            assert [(c.value, c.name) for c in param.choices] == list(option.values), name
    # the table's ranges (docs/RULES.md §2.8), no narrower
    assert (params["chips"].min_value, params["chips"].max_value) == (2, 1000)
    assert (params["fixed_rounds"].min_value, params["fixed_rounds"].max_value) == (1, 200)
    assert set(NEW_OPTIONS) <= {o for rules in PRESETS.values() for o in rules.table_options}


def test_checking_the_rules_never_changes_the_options_it_is_given():
    options: dict[str, object] = {"open_trading": True}
    rules = TableService.check_rules("jaques", options)
    assert rules.open_trading and rules.direct_trading  # the rules imply it
    assert options == {"open_trading": True}
    assert get_preset("jaques", options) == rules


async def test_presets_without_their_controls_yet_and_odd_input_are_refused(simcord_env, bots):
    env = simcord_env
    guild = env.create_guild()
    general = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    res = await ann.slash(general, "commerce new", rules="x" * 3000)
    assert res.ephemeral and len(res.response.content) < 300
    res = await ann.slash(general, "commerce rules", preset="y" * 3000)
    assert res.ephemeral and len(res.response.content) < 2000
