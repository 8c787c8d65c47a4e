// Placeholder until this target gets its first real file; delete when adding one.
