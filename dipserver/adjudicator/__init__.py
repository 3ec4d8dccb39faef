"""The engine's command line, ``python -m dipserver.adjudicator`` (see docs/engine.md): the JSON contract,
the batch, the workers. It uses the engine; the engine never imports it.
"""
