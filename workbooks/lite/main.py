"""xlshuffle's worksheet functions in xlwings Lite.

Paste this file into the main.py tab of the xlwings Lite task pane, and the line of
requirements.txt (beside this file) into its requirements.txt tab. Lite registers every
function decorated with @func that main.py holds, imported ones included, so after it
restarts these work in any cell (Excel may show them with the add-in's prefix):

    =SHUFFLE(A2:A11, 42)          =SAMPLE(A2:A31, 3, "raffle 2026")
    =DEAL(5, 4, "poker night")    =GROUPS(A2:A17, 4, "offsite")
    =SHUFFLESTR(A2, "jumble")

Add your own @func and @script functions below as usual.
"""

from xlshuffle.excel import DEAL, GROUPS, SAMPLE, SHUFFLE, SHUFFLESTR

__all__ = ["DEAL", "GROUPS", "SAMPLE", "SHUFFLE", "SHUFFLESTR"]
