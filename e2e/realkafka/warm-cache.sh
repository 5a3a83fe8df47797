#!/usr/bin/env bash
# Resolves the jars of every Kafka version the real-Kafka tests run
# (e2e/realkafka/versions.go) into
# ${XDG_CACHE_HOME:-$HOME/.cache}/connectscope/kafka/<version>, using Maven
# and e2e/realkafka/pom.xml. Needs java and mvn:
#   apt-get install openjdk-17-jdk-headless maven
set -euo pipefail
cd "$(dirname "$0")/../.."
go test -tags e2e -count=1 -run '^TestResolve$' ./e2e/realkafka
