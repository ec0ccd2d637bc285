# expect: yours raised KeyError where the reference returned 326
# expect: "prompt_tokens": 326
def input_tokens(provider, response):
    return response["usage"]["input_tokens"]
