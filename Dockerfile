# A release image of sso-bridge: the binary on a slim Debian, running as an unprivileged user.
FROM rust:1-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
# Build flags (tokio's unstable runtime options: see docs/src/performance/design.md, No LIFO slot).
COPY .cargo .cargo
COPY src src
COPY templates templates
COPY config config
# Every target Cargo.toml names must be there for cargo to read it, the tests and benches too.
COPY tests tests
COPY benches benches
RUN cargo build --release --locked --bin sso-bridge

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates libssl3 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin sso-bridge
COPY --from=build /src/target/release/sso-bridge /usr/local/bin/sso-bridge
USER sso-bridge
ENV SSO_BRIDGE__SERVER__LISTEN=0.0.0.0:8080
EXPOSE 8080
ENTRYPOINT ["sso-bridge"]
CMD ["serve"]
