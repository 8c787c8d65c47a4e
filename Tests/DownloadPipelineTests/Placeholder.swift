// Placeholder until the first test file lands; delete when adding one.
