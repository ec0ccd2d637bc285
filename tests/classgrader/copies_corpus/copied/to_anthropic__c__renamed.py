def to_anthropic(history):
    sys_text = None
    result = []
    for entry in history:
        match entry["role"]:
            case "user":
                result.append({"role": "user", "content": entry["content"]})
            case "system":
                sys_text = entry["content"]
            case "tool":
                tr = {"type": "tool_result", "tool_use_id": entry["tool_call_id"],
                      "content": entry["content"]}
                if result and result[-1]["role"] == "user" and isinstance(result[-1]["content"], list):
                    result[-1]["content"].append(tr)
                else:
                    result.append({"role": "user", "content": [tr]})
            case "assistant":
                pieces = []
                if entry.get("content"):
                    pieces.append({"type": "text", "text": entry["content"]})
                for call in entry.get("tool_calls") or []:
                    pieces.append({"type": "tool_use", "id": call["id"], "name": call["name"],
                                   "input": call["arguments"]})
                result.append({"role": "assistant", "content": pieces})
    return sys_text, result
