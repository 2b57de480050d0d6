"""Regenerate the raster assets of the bundled sites (deterministic; needs Pillow and numpy).

Run: python tasks/sites/make_assets.py   (writes into each site's assets/ folder)
"""
import math, os, random
from PIL import Image, ImageDraw, ImageFilter

ROOT = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(7)

def grad(w, h, c1, c2, vertical=True):
    im = Image.new("RGB", (w, h), c1)
    d = ImageDraw.Draw(im)
    n = h if vertical else w
    for i in range(n):
        t = i / max(1, n - 1)
        c = tuple(int(c1[k] + (c2[k] - c1[k]) * t) for k in range(3))
        if vertical: d.line([(0, i), (w, i)], fill=c)
        else: d.line([(i, 0), (i, h)], fill=c)
    return im

def shadow(im, box, blur=18, alpha=70):
    w, h = im.size
    sh = Image.new("L", (w, h), 0)
    ImageDraw.Draw(sh).ellipse(box, fill=alpha)
    sh = sh.filter(ImageFilter.GaussianBlur(blur))
    dark = Image.new("RGB", (w, h), (20, 24, 30))
    im.paste(dark, (0, 0), sh)

def grain(im, amt=10, seed=1):
    import numpy as np
    a = np.asarray(im.convert("RGB")).astype("int16")
    n = np.random.default_rng(seed).normal(0, amt, a.shape[:2])[..., None]
    return Image.fromarray(np.clip(a + n, 0, 255).astype("uint8"))

def save(im, path, q=82):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    rel = os.path.relpath(path, ROOT)
    im = grain(im, 5 if path.endswith(".png") else (3 if "hero" in path else 7), sum(map(ord, rel)))
    if path.endswith(".jpg"):
        im.convert("RGB").save(path, "JPEG", quality=q, optimize=True, progressive=True)
    else:
        im.save(path, "PNG", optimize=True)
    print(path, os.path.getsize(path))

def down(im, size):
    return im.resize(size, Image.LANCZOS)

# ---------------- shop products (800x600 drawn, 400x300 saved) -------------
W, H = 800, 600
def product(name, bg1, bg2, draw_fn):
    im = grad(W, H, bg1, bg2)
    shadow(im, (170, 470, 630, 540))
    d = ImageDraw.Draw(im)
    draw_fn(d, im)
    im = down(im, (400, 300))
    save(im, f"{ROOT}/shop/assets/{name}.jpg", q=84)

def shoe(d, im, col=(226, 88, 52), sole=(245, 245, 240)):
    d.rounded_rectangle((170, 410, 640, 470), 30, fill=sole)
    d.polygon([(190, 420), (230, 260), (330, 230), (400, 300), (560, 330), (630, 380), (635, 425)], fill=col)
    d.ellipse((210, 240, 345, 330), fill=col)
    for i in range(5):
        x = 300 + i * 28
        d.line([(x, 270 + i * 8), (x + 30, 300 + i * 8)], fill=(255, 255, 255), width=8)
    d.line([(190, 425), (635, 425)], fill=(60, 60, 70), width=8)
    d.arc((380, 320, 600, 430), 200, 320, fill=(255, 230, 200), width=10)

def backpack(d, im):
    c = (46, 110, 90)
    d.rounded_rectangle((260, 150, 540, 480), 60, fill=c)
    d.rounded_rectangle((300, 300, 500, 450), 30, fill=(38, 92, 75))
    d.arc((320, 80, 480, 220), 180, 360, fill=(30, 60, 50), width=18)
    d.rounded_rectangle((330, 200, 470, 250), 18, fill=(240, 180, 60))
    d.line([(300, 370), (500, 370)], fill=(25, 60, 50), width=6)

def jacket(d, im):
    c = (40, 80, 160)
    d.polygon([(300, 140), (500, 140), (600, 220), (640, 470), (570, 480), (550, 300), (540, 480), (260, 480), (250, 300), (230, 480), (160, 470), (200, 220)], fill=c)
    d.polygon([(340, 140), (400, 220), (460, 140)], fill=(25, 50, 110))
    d.line([(400, 200), (400, 480)], fill=(230, 230, 240), width=6)
    d.rounded_rectangle((290, 330, 370, 350), 6, fill=(25, 50, 110))
    d.rounded_rectangle((430, 330, 510, 350), 6, fill=(25, 50, 110))

def tent(d, im):
    d.polygon([(150, 480), (400, 140), (650, 480)], fill=(236, 160, 40))
    d.polygon([(400, 140), (650, 480), (520, 480)], fill=(200, 120, 30))
    d.polygon([(340, 480), (400, 300), (460, 480)], fill=(60, 40, 30))
    d.line([(400, 140), (400, 110)], fill=(80, 80, 80), width=6)

def bottle(d, im):
    d.rounded_rectangle((330, 170, 470, 490), 40, fill=(200, 60, 80))
    d.rounded_rectangle((355, 110, 445, 180), 14, fill=(60, 60, 70))
    d.rounded_rectangle((340, 280, 460, 380), 10, fill=(240, 240, 245))
    d.line([(360, 330), (440, 330)], fill=(200, 60, 80), width=10)

def headlamp(d, im):
    d.ellipse((200, 220, 600, 470), outline=(40, 40, 50), width=26)
    d.rounded_rectangle((320, 250, 480, 380), 30, fill=(250, 200, 40))
    d.ellipse((355, 270, 445, 360), fill=(255, 255, 230))
    d.ellipse((375, 290, 425, 340), fill=(255, 250, 180))

def beanie(d, im):
    d.chord((230, 170, 570, 560), 180, 360, fill=(170, 50, 60))
    d.rounded_rectangle((220, 330, 580, 420), 20, fill=(140, 35, 45))
    for x in range(240, 580, 30):
        d.line([(x, 335), (x, 415)], fill=(120, 30, 40), width=6)
    d.ellipse((360, 120, 440, 200), fill=(240, 230, 220))

def socks(d, im):
    for off, c in ((0, (90, 120, 70)), (110, (220, 140, 60))):
        d.rounded_rectangle((260 + off, 150, 350 + off, 400), 20, fill=c)
        d.rounded_rectangle((260 + off, 340, 440 + off, 430), 45, fill=c)
        d.rectangle((260 + off, 150, 350 + off, 185), fill=(245, 245, 240))

product("trail-runner", (236, 240, 244), (214, 222, 230), shoe)
product("summit-pack", (232, 238, 232), (208, 220, 210), backpack)
product("storm-shell", (230, 236, 246), (206, 216, 234), jacket)
product("ridge-tent", (246, 240, 230), (230, 220, 204), tent)
product("canyon-bottle", (244, 236, 238), (228, 214, 218), bottle)
product("beam-headlamp", (240, 240, 236), (222, 222, 214), headlamp)
product("alpine-beanie", (242, 236, 236), (226, 214, 214), beanie)
product("merino-socks", (238, 240, 232), (220, 224, 210), socks)
product("approach-shoe", (236, 238, 240), (214, 218, 222), lambda d, im: shoe(d, im, (70, 80, 90), (220, 200, 160)))

# ---------------- landscapes -------------
def landscape(path, size, sky1, sky2, layers, sun=None, q=80):
    w, h = size
    im = grad(w, h, sky1, sky2)
    d = ImageDraw.Draw(im)
    if sun:
        x, y, r, c = sun
        glow = Image.new("L", (w, h), 0)
        ImageDraw.Draw(glow).ellipse((x - r * 3, y - r * 3, x + r * 3, y + r * 3), fill=90)
        glow = glow.filter(ImageFilter.GaussianBlur(r))
        im.paste(Image.new("RGB", (w, h), c), (0, 0), glow)
        d = ImageDraw.Draw(im)
        d.ellipse((x - r, y - r, x + r, y + r), fill=c)
    lr = random.Random(sum(map(ord, os.path.relpath(path, ROOT))))
    for base, amp, col, freq in layers:
        pts = [(0, h)]
        ph = lr.random() * 6
        for x in range(0, w + 10, 10):
            y = base + amp * (0.6 * math.sin(x * freq + ph) + 0.4 * math.sin(x * freq * 2.7 + ph * 2))
            pts.append((x, y))
        pts.append((w, h))
        d.polygon(pts, fill=col)
    save(im, path, q)

landscape(f"{ROOT}/docs_blog/assets/slide-valley.jpg", (760, 340), (120, 170, 220), (230, 210, 190),
          [(200, 40, (110, 130, 160), 0.008), (250, 30, (70, 100, 110), 0.012), (300, 18, (40, 70, 60), 0.02)], (560, 120, 34, (255, 236, 190)))
landscape(f"{ROOT}/docs_blog/assets/slide-coast.jpg", (760, 340), (250, 170, 120), (120, 90, 150),
          [(230, 25, (90, 70, 120), 0.01), (280, 8, (40, 60, 110), 0.03), (310, 6, (30, 40, 80), 0.05)], (200, 200, 40, (255, 210, 150)))
landscape(f"{ROOT}/docs_blog/assets/slide-forest.jpg", (760, 340), (190, 220, 200), (240, 240, 220),
          [(180, 50, (140, 170, 150), 0.009), (240, 35, (80, 120, 90), 0.015), (290, 25, (30, 70, 50), 0.03)], None)
landscape(f"{ROOT}/landing/assets/hero-bg.jpg", (1440, 640), (18, 26, 60), (80, 60, 140),
          [(470, 60, (50, 40, 100), 0.004), (540, 40, (34, 28, 76), 0.007), (600, 20, (20, 18, 50), 0.012)], (1100, 200, 60, (255, 170, 200)), q=50)
landscape(f"{ROOT}/mobile_bank/assets/card-bg.jpg", (700, 420), (20, 40, 90), (10, 120, 130),
          [(300, 40, (20, 90, 120), 0.01), (360, 25, (15, 60, 90), 0.02)], (560, 80, 30, (120, 220, 220)))

# ---------------- avatars -------------
def avatar(path, bg, skin, hair, size=160):
    im = Image.new("RGB", (size * 2, size * 2), bg)
    d = ImageDraw.Draw(im)
    s = size * 2
    d.ellipse((s * 0.2, s * 0.62, s * 0.8, s * 1.3), fill=(min(255, bg[0] - 40 if bg[0] > 60 else 60), max(0, bg[1] - 50), max(0, bg[2] - 30)))
    d.ellipse((s * 0.3, s * 0.18, s * 0.7, s * 0.62), fill=skin)
    d.chord((s * 0.28, s * 0.12, s * 0.72, s * 0.5), 180, 360, fill=hair)
    im = down(im, (size, size))
    save(im, path)

avatar(f"{ROOT}/mobile_bank/assets/avatar.png", (120, 170, 220), (236, 196, 160), (70, 45, 30), 96)
avatar(f"{ROOT}/docs_blog/assets/author.png", (230, 200, 150), (210, 160, 120), (30, 30, 40), 96)
for i, (bg, sk, hr) in enumerate([((200, 220, 240), (240, 200, 170), (120, 70, 40)),
                                 ((230, 210, 240), (190, 140, 110), (20, 20, 20)),
                                 ((210, 235, 215), (245, 210, 185), (200, 160, 80))]):
    avatar(f"{ROOT}/landing/assets/person-{i+1}.png", bg, sk, hr, 96)

# ---------------- landing: app screenshot -------------
def app_shot(path):
    w, h = 1120, 680
    im = Image.new("RGB", (w, h), (248, 249, 252))
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, w, 44), fill=(236, 238, 244))
    for i, c in enumerate([(255, 95, 86), (255, 189, 46), (39, 201, 63)]):
        d.ellipse((18 + i * 24, 15, 32 + i * 24, 29), fill=c)
    d.rectangle((0, 44, 210, h), fill=(30, 34, 58))
    for i in range(7):
        d.rounded_rectangle((22, 80 + i * 46, 180, 106 + i * 46), 6, fill=(60, 66, 100) if i else (108, 92, 231))
    for i in range(4):
        x = 240 + i * 214
        d.rounded_rectangle((x, 70, x + 196, 170), 12, fill=(255, 255, 255), outline=(226, 230, 240))
        d.rounded_rectangle((x + 18, 92, x + 110, 104), 5, fill=(200, 205, 220))
        d.rounded_rectangle((x + 18, 120, x + 150, 146), 6, fill=[(108, 92, 231), (20, 184, 166), (245, 158, 11), (236, 72, 153)][i])
    d.rounded_rectangle((240, 194, 740, 640), 12, fill=(255, 255, 255), outline=(226, 230, 240))
    pts = []
    for i in range(26):
        x = 270 + i * 18
        y = 560 - 200 * (0.5 + 0.35 * math.sin(i / 3.2) + 0.15 * math.sin(i / 1.3)) - i * 4
        pts.append((x, y))
    d.polygon(pts + [(pts[-1][0], 600), (270, 600)], fill=(226, 222, 252))
    d.line(pts, fill=(108, 92, 231), width=5)
    for i in range(6):
        d.line([(270, 250 + i * 70), (720, 250 + i * 70)], fill=(238, 240, 246), width=2)
    d.rounded_rectangle((760, 194, 1096, 640), 12, fill=(255, 255, 255), outline=(226, 230, 240))
    for i in range(7):
        y = 230 + i * 56
        d.ellipse((782, y, 812, y + 30), fill=[(108, 92, 231), (20, 184, 166), (245, 158, 11)][i % 3])
        d.rounded_rectangle((826, y + 4, 960, y + 14), 5, fill=(200, 205, 220))
        d.rounded_rectangle((826, y + 20, 920, y + 28), 4, fill=(226, 230, 240))
        d.rounded_rectangle((1010, y + 6, 1074, y + 22), 8, fill=(236, 253, 245))
    im = down(im, (560, 340))
    save(im, path, q=86)

app_shot(f"{ROOT}/landing/assets/app-screenshot.jpg")

# ---------------- recipe dish -------------
def dish(path):
    w, h = 1000, 700
    im = grad(w, h, (120, 80, 50), (80, 50, 30))
    d = ImageDraw.Draw(im)
    for y in range(0, h, 70):
        d.line([(0, y), (w, y + 20)], fill=(100, 66, 40), width=3)
    shadow(im, (230, 160, 800, 690), blur=30, alpha=120)
    d = ImageDraw.Draw(im)
    d.ellipse((210, 100, 790, 640), fill=(245, 243, 238))
    d.ellipse((270, 150, 730, 590), fill=(236, 232, 224))
    lr = random.Random(3)
    for _ in range(90):
        a = lr.random() * 6.28; r = lr.random() * 180
        x = 500 + r * math.cos(a); y = 370 + r * math.sin(a) * 0.95
        d.line([(x, y), (x + lr.randint(-40, 40), y + lr.randint(-40, 40))], fill=(235, 200, 110), width=9)
    for _ in range(16):
        a = lr.random() * 6.28; r = lr.random() * 160
        x = 500 + r * math.cos(a); y = 370 + r * math.sin(a)
        d.ellipse((x - 16, y - 16, x + 16, y + 16), fill=(200, 40, 30))
    for _ in range(14):
        a = lr.random() * 6.28; r = lr.random() * 170
        x = 500 + r * math.cos(a); y = 370 + r * math.sin(a)
        d.ellipse((x - 12, y - 7, x + 12, y + 7), fill=(60, 140, 50))
    im = down(im, (500, 350))
    save(im, path, q=82)

dish(f"{ROOT}/recipe/assets/pasta.jpg")

# ---------------- music covers -------------
def cover(path, c1, c2, shape):
    s = 480
    im = grad(s, s, c1, c2)
    d = ImageDraw.Draw(im)
    if shape == 0:
        for i in range(8):
            d.ellipse((40 + i * 20, 40 + i * 20, 440 - i * 20, 440 - i * 20), outline=(255, 255, 255), width=4)
    elif shape == 1:
        for i in range(10):
            d.line([(0, 48 * i), (s, 48 * i + 120)], fill=(255, 255, 255), width=10)
    else:
        d.polygon([(240, 60), (420, 400), (60, 400)], outline=(255, 255, 255), width=10)
        d.ellipse((190, 230, 290, 330), fill=(255, 230, 120))
    im = down(im, (240, 240))
    save(im, path, q=84)

cover(f"{ROOT}/music_player/assets/cover-1.jpg", (233, 78, 119), (80, 40, 120), 0)
cover(f"{ROOT}/music_player/assets/cover-2.jpg", (30, 160, 180), (20, 50, 110), 1)
cover(f"{ROOT}/music_player/assets/cover-3.jpg", (250, 170, 60), (190, 60, 40), 2)
