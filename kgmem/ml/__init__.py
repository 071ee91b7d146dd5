"""Model loading and calls: the embedder, the spaCy pipeline and the optional LLM."""
