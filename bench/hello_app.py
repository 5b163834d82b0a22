"""A bare Flask app that answers "hello": the yardstick bench/web.py measures our pages against."""

from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello():
    return "hello"
