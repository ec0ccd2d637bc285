def to_anthropic(history):
    # convert our history into anthropic's format
    sys_prompt, out = None, []
    for m in history:
        r = m["role"]
        if r == "system":
            sys_prompt = m["content"]
        elif r == "user":
            out.append({"role": "user", "content": m["content"]})
        elif r == "assistant":
            b = [{"type": "text", "text": m["content"]}] if m.get("content") else []
            b += [{"type": "tool_use", "id": tc["id"], "name": tc["name"], "input": tc["arguments"]}
                  for tc in m.get("tool_calls") or []]
            out.append({"role": "assistant", "content": b})
        else:
            res = {"type": "tool_result", "tool_use_id": m["tool_call_id"], "content": m["content"]}
            last = out[-1] if out else None
            if last and last["role"] == "user" and isinstance(last["content"], list):
                last["content"].append(res)
            else:
                out.append({"role": "user", "content": [res]})
    return sys_prompt, out
