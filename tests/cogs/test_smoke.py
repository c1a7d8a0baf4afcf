async def test_new_table_opens_channel(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    lobby = guild.create_text_channel("general")
    ann = guild.add_member(env.create_user("ann"))
    res = await ann.slash(lobby, "commerce new")
    print(res.response.content, res.followups)
    print([c.name for c in guild.channels.values()] if hasattr(guild.channels, "values") else guild.channels)
