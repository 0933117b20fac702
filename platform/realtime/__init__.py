"""The real-time transport: the websockets (a socket base with its limits, the match socket), frames in order, the
heartbeat that heals, presence's liveness, the channel layer, and the broadcast that sends what the engine's
writers commit (``turnengine.outbox``). It builds on the engine; the engine never imports it."""
