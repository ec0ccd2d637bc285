def worth_retrying(error):
    return error.status == 429
