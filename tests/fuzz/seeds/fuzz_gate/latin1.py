x = "café"
