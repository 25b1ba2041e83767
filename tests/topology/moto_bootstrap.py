#!/usr/bin/env python3
"""Bootstrap and check the moto server of the test topology.

  moto_bootstrap.py bootstrap ENDPOINT   spend moto's unchecked requests (INITIAL_NO_AUTH_ACTION_COUNT=3)
                                         on: IAM user byoc-test, its access key, an allow-all user policy;
                                         then check that signing is enforced.
  moto_bootstrap.py check ENDPOINT       check the key in AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY still works.

Both print KEY=VALUE lines on stdout for up.sh (the key, the account, the caller ARN and
the user/password that moto's ECR GetAuthorizationToken hands out). Exit 1 with a message
on stderr when something is off.
"""

import base64
import json
import os
import sys
import urllib.error
import urllib.request

import boto3
import botocore
from botocore.config import Config
from botocore.exceptions import ClientError

REGION = "us-east-1"
USER = "byoc-test"
UNCHECKED_REQUESTS = 3  # must equal INITIAL_NO_AUTH_ACTION_COUNT in up.sh
NO_RETRY = Config(retries={"total_max_attempts": 1, "mode": "standard"})
ALLOW_ALL = json.dumps({"Version": "2012-10-17",
                        "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]})


def client(service, endpoint, key=None, secret=None):
    return boto3.session.Session().client(
        service, region_name=REGION, endpoint_url=endpoint, config=NO_RETRY,
        aws_access_key_id=key or "bootstrap", aws_secret_access_key=secret or "bootstrap")


def fail(message):
    print("moto_bootstrap: " + message, file=sys.stderr)
    sys.exit(1)


def refused(call):
    try:
        call()
    except ClientError as exc:
        return exc.response["ResponseMetadata"]["HTTPStatusCode"] in (400, 403)
    return False


def unsigned_refused(endpoint):
    """moto answers a request without Authorization with a 500 (it looks the header up and fails)."""
    request = urllib.request.Request(endpoint + "/", data=b"Action=GetCallerIdentity&Version=2011-06-15",
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(request, timeout=10):
            return False
    except urllib.error.HTTPError as exc:
        return exc.code >= 400


def describe(endpoint, key, secret):
    ident = client("sts", endpoint, key, secret).get_caller_identity()
    token = client("ecr", endpoint, key, secret).get_authorization_token()["authorizationData"][0]
    user, _, password = base64.b64decode(token["authorizationToken"]).decode().partition(":")
    return {
        "ACCESS_KEY_ID": key,
        "SECRET_ACCESS_KEY": secret,
        "ACCOUNT": ident["Account"],
        "ARN": ident["Arn"],
        "ECR_USER": user,
        "ECR_PASSWORD": password,
        "ECR_PROXY_ENDPOINT": token["proxyEndpoint"],
    }


def bootstrap(endpoint):
    iam = client("iam", endpoint)
    iam.create_user(UserName=USER)
    key = iam.create_access_key(UserName=USER)["AccessKey"]
    iam.put_user_policy(UserName=USER, PolicyName="allow-all", PolicyDocument=ALLOW_ALL)
    # Those were the UNCHECKED_REQUESTS; from here on moto checks every signature.
    kid, secret = key["AccessKeyId"], key["SecretAccessKey"]
    if not unsigned_refused(endpoint):
        fail("moto accepted an unsigned request after bootstrap (INITIAL_NO_AUTH_ACTION_COUNT not applied?)")
    if not refused(lambda: client("sts", endpoint, kid, secret + "x").get_caller_identity()):
        fail("moto accepted a badly signed request after bootstrap")
    return describe(endpoint, kid, secret)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("bootstrap", "check"):
        fail("usage: moto_bootstrap.py bootstrap|check ENDPOINT")
    endpoint = sys.argv[2]
    try:
        if sys.argv[1] == "bootstrap":
            facts = bootstrap(endpoint)
        else:
            facts = describe(endpoint, os.environ["AWS_ACCESS_KEY_ID"], os.environ["AWS_SECRET_ACCESS_KEY"])
    except (ClientError, botocore.exceptions.BotoCoreError, KeyError) as exc:
        fail("%s failed: %s" % (sys.argv[1], exc))
    if not facts["ARN"].endswith(":user/" + USER):
        fail("signed GetCallerIdentity answered %s, expected user/%s" % (facts["ARN"], USER))
    for name, value in facts.items():
        print("%s=%s" % (name, value))


if __name__ == "__main__":
    main()
