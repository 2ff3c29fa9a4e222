// MapCamera — see Documentation/ARCHITECTURE.md for what this module owns.
