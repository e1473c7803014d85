"""Text and name rules every stage shares: sentences (``sentences``), words, stems and
stopwords (``words``), type names and the kinds they name (``type_names``). Below ``llm``
and every package that reads text; the offline backend's own heuristics stay in
``llm/offline``."""
