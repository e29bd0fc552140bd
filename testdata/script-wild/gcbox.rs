// gcbox.rs: Rust frames with generics, trait impls and closures, whose
// legacy-mangled names perf script prints partly or wholly demangled.
// (Debian 12's rustc 1.63 has no stable std::hint::black_box.)
#[inline(never)]
fn black_box(x: u64) -> u64 {
    let mut v = x;
    unsafe { std::ptr::read_volatile(&mut v) }
}

struct GcBox<T> {
    value: T,
}

impl<T: Copy + Into<u64>> GcBox<T> {
    #[inline(never)]
    fn new(value: T) -> GcBox<T> {
        let work = |n: u64| -> u64 {
            let mut x = n;
            for i in 0..20000u64 {
                x = black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
            }
            x
        };
        black_box(work(value.into()));
        GcBox { value }
    }
}

trait Visit {
    fn visit(&self, rounds: u64) -> u64;
}

impl<T: Copy + Into<u64>> Visit for GcBox<T> {
    #[inline(never)]
    fn visit(&self, rounds: u64) -> u64 {
        (0..rounds)
            .map(|r| GcBox::new(self.value).value.into() ^ r)
            .fold(0, |a, b| a.wrapping_add(b))
    }
}

// Self types whose legacy mangling has `$u3d$` ('='), `$LP$`, `$C$` and '.'
// for '-': perf 6.1's own Rust demangler stops at `$u3d$` and prints the
// name as the C++ demangler left it, `$LT$`s and hash included.
impl Visit for Box<dyn Fn(u64) -> u64> {
    #[inline(never)]
    fn visit(&self, rounds: u64) -> u64 {
        (0..rounds).map(|r| GcBox::new((self)(r) as u32).value as u64).sum()
    }
}

impl Visit for fn(u64) -> u64 {
    #[inline(never)]
    fn visit(&self, rounds: u64) -> u64 {
        (0..rounds).map(|r| GcBox::new((self)(r) as u8).value as u64).sum()
    }
}

#[inline(never)]
fn run(items: &[Box<dyn Visit>], rounds: u64) -> u64 {
    items.iter().map(|v| v.visit(rounds)).sum()
}

fn main() {
    let rounds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3000);
    let triple: Box<dyn Fn(u64) -> u64> = Box::new(|x| x * 3);
    let inc: fn(u64) -> u64 = |x| x + 1;
    let items: Vec<Box<dyn Visit>> = vec![
        Box::new(GcBox { value: 7u8 }),
        Box::new(GcBox { value: 9u32 }),
        Box::new(triple),
        Box::new(inc),
    ];
    println!("{}", run(&items, rounds));
}
