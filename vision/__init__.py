"""Pure image code: decoding, card localisation, OCR and matching features. No HTTP, no database."""
