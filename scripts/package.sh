#!/usr/bin/env bash
# Builds the AWS deployment offline: the CloudFormation template and one esbuild bundle per
# Lambda, in .serverless/. No AWS credentials, no login, no network: osls (Serverless Framework
# v3, open-source fork) with serverless-esbuild and serverless-step-functions.
#
#   npm run package                      # stage "ci", us-east-1
#   npm run package -- --stage prod --region eu-west-1 --param="onDemandWeight=1"
#
# osls writes ~/.serverlessrc and caches its compiled config schema under ~/.serverless, so it
# runs with a HOME of its own inside node_modules/.cache (never the user's, no AWS config in it;
# GEOHUB_PACKAGE_HOME overrides). AWS credentials and profiles in the environment are ignored:
# packaging must never depend on them.
set -euo pipefail
cd "$(dirname "$0")/.."

stage=ci
region=us-east-1
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --stage) stage=$2; shift 2 ;;
    --stage=*) stage=${1#*=}; shift ;;
    --region) region=$2; shift 2 ;;
    --region=*) region=${1#*=}; shift ;;
    *) args+=("$1"); shift ;;
  esac
done

home=${GEOHUB_PACKAGE_HOME:-node_modules/.cache/geohub-package-home}
mkdir -p "$home"
home=$(cd "$home" && pwd)
# serverless-esbuild leaves the scratch directory of the last function it zips in the temp dir
# (capacity-<pid>-<time>-<hex>): give it a directory of its own, removed whatever happens.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/geohub-package-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
start=$(date +%s%N)
env -u AWS_PROFILE -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY -u AWS_SESSION_TOKEN \
  HOME="$home" TMPDIR="$scratch" AWS_EC2_METADATA_DISABLED=true AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true \
  node_modules/.bin/osls package --stage "$stage" --region "$region" ${args[@]+"${args[@]}"}
echo "packaged stage $stage ($region) into .serverless/ in $(( ($(date +%s%N) - start) / 1000000 )) ms"
