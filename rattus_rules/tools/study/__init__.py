"""The study for any game: which readings matter, by paired games, with confidence intervals and reports."""
