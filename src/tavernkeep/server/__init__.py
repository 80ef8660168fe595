"""The web app: lobby, tables, seats, websocket play, persistence, the browser client."""
