"""``handfoot serve``: play, watch and replay in the browser (a Starlette app on uvicorn)."""
