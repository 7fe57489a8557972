const t=performance.now(); const y = await import('yaml'); const t1=performance.now();
const text = 'name: Soul\ntype: core\nsummary: "hello: world"\nupdated: 2026-02-27\ntags:\n  - a\n  - b\npinned: true\n'
let t2=performance.now(); for (let i=0;i<100;i++) y.parse(text); let t3=performance.now();
console.log('import', (t1-t).toFixed(1), 'parse100', (t3-t2).toFixed(1))
const z0=performance.now(); await import('zod/mini'); console.log('zodmini', (performance.now()-z0).toFixed(1))
