"""What a person reads: tables, exports, IMB text, plots, the HTML report, the tools' own tables."""
