// harmless: what the text policy saw
