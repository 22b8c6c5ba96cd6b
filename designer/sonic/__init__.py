"""SONiC specifics checked with SONiC's own tools: its YANG models (libyang) for config_db.json."""
