def to_anthropic(history):
    """(system, messages) for an Anthropic Messages request carrying this history."""
    system = None
    out = []
    for msg in history:
        match msg["role"]:
            case "system":
                system = msg["content"]
            case "user":
                out.append({"role": "user", "content": msg["content"]})
            case "assistant":
                parts = []
                if msg.get("content"):
                    parts.append({"type": "text", "text": msg["content"]})
                for tc in msg.get("tool_calls") or []:
                    parts.append({"type": "tool_use", "id": tc["id"], "name": tc["name"],
                                  "input": tc["arguments"]})
                out.append({"role": "assistant", "content": parts})
            case "tool":
                res = {"type": "tool_result", "tool_use_id": msg["tool_call_id"],
                       "content": msg["content"]}
                if out and out[-1]["role"] == "user" and isinstance(out[-1]["content"], list):
                    out[-1]["content"].append(res)
                else:
                    out.append({"role": "user", "content": [res]})
    return system, out
