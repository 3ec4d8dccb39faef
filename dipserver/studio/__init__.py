"""The variant studio: game masters author variants in the browser (drafts), check them with the engine's
``check``, and publish frozen versions that games pin. A draft is data in the shape of ``variants/<slug>/``
and loads through the same loader as the variants shipped with the code."""
