"""graphs"""
