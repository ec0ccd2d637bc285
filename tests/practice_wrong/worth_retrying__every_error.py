def worth_retrying(error):
    return True
