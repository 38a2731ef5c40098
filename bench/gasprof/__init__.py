"""The gas profiler behind bench/gas_profile.py: source maps (srcmap), the traced
call (trace), the attribution (attribute) and the hotspot groups (groups)."""
