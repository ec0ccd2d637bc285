# expect: for HTTP 400 invalid_request_error yours gives True, the reference False
def worth_retrying(error):
    return True
