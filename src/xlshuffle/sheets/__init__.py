"""xlshuffle's functions in Google Sheets: one self-contained Apps Script file."""
