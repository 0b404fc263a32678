"""Delivery of a finished run to where its user reads (email, 企业微信, 飞书, 钉钉, Telegram, webhooks).

Module map: secrets (a notification URL shown without its tokens), message (the run's summary, short
enough for a chat), deliver (apprise, retried with backoff, never failing the run), config (URLs from
`--notify` and `$LMSCREEN_HOME/config.toml`). apprise is optional (`pip install 'lmscreen[nightly]'`) and
imported only when something is sent.
"""
