# expect: for HTTP 408 request_timeout yours gives False, the reference True
def worth_retrying(error):
    return error.status == 429
