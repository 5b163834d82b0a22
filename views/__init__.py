"""The web views, one module per part of the product; `app.py` builds the app and registers them."""
