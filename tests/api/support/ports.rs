//! Free and held loopback ports, readiness waits, and a port that never answers.

use std::collections::BTreeSet;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Every port [`free_port`], [`Reserved::hold`] and [`Blackhole`] gave out in this process.
static GIVEN: Mutex<BTreeSet<u16>> = Mutex::new(BTreeSet::new());

/// Whether `port` was not given out before in this process (and now is). A port is free again
/// the moment its holder lets it go, before the server it was meant for listens on it: the
/// kernel may offer it to the next caller, and two servers of one test (slapd's two ports) or of
/// two tests would then race for it.
fn first_time(port: u16) -> bool {
    GIVEN.lock().unwrap_or_else(|e| e.into_inner()).insert(port)
}

/// A loopback port that was free a moment ago, never given out before in this process.
pub fn free_port() -> u16 {
    loop {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free loopback port");
        if first_time(port) {
            return port;
        }
    }
}

/// Waits until something accepts TCP connections on `port`, or panics after `limit`.
pub fn wait_for_port(port: u16, limit: Duration) {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
            return;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    panic!("nothing listened on 127.0.0.1:{port} within {limit:?}");
}

/// A loopback port held but not listened on: connecting is refused, as where nothing listens,
/// and no other test can take the port meanwhile, as it can take one that was only free a
/// moment ago. `release` hands the port to whoever listens on it next.
pub struct Reserved {
    port: u16,
    socket: tokio::net::TcpSocket,
}

impl Reserved {
    /// Holds one. Needs a Tokio runtime.
    pub fn hold() -> Reserved {
        let socket = loopback_socket();
        let port = socket.local_addr().expect("its address").port();
        Reserved { port, socket }
    }

    /// Its port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Lets the port go, to be listened on at once.
    pub fn release(self) -> u16 {
        drop(self.socket);
        self.port
    }
}

/// A loopback port where connecting never completes, like a server behind a firewall that
/// drops packets: its listener never accepts, and its queue of waiting connections is full, so
/// the kernel ignores every new handshake. Closed when dropped.
pub struct Blackhole {
    port: u16,
    _listener: tokio::net::TcpListener,
    _queued: Vec<TcpStream>,
}

impl Blackhole {
    /// Opens one. Needs a Tokio runtime.
    pub fn open() -> Blackhole {
        let listener = loopback_socket().listen(0).expect("listening");
        let addr = listener.local_addr().expect("its address");
        // Fill the queue until a handshake goes unanswered.
        let mut queued = Vec::new();
        while let Ok(stream) = TcpStream::connect_timeout(&addr, Duration::from_millis(200)) {
            queued.push(stream);
            assert!(queued.len() < 16, "the kernel keeps accepting on {addr}");
        }
        Blackhole {
            port: addr.port(),
            _listener: listener,
            _queued: queued,
        }
    }

    /// Its port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }
}

/// A socket bound to a free port on 127.0.0.1, not listening yet. Needs a Tokio runtime.
fn loopback_socket() -> tokio::net::TcpSocket {
    loop {
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket
            .bind(SocketAddr::from(([127, 0, 0, 1], 0)))
            .expect("a loopback port");
        if first_time(socket.local_addr().expect("its address").port()) {
            return socket;
        }
    }
}
