"""por-auditor/3 modelled before it is built (ADR 0016): records committed by entry,
the compact proof format, and a settle-gas projection calibrated on today's contracts."""
