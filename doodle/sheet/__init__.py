"""Printable score sheets and their photos: `layout` (where everything is, in mm), `pdf` (the printable PDF)."""
