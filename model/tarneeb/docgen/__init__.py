"""docgen"""
