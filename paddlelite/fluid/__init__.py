"""fluid-era spellings (thin aliases)."""
