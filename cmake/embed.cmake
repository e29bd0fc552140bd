# embed.cmake: turn a text file into a C header holding it as a
# NUL-terminated char array, so the library carries it without a file.
# cmake -DIN=file -DOUT=header.h -DNAME=symbol -P embed.cmake
file(READ "${IN}" text)
string(FIND "${text}" "]]>" cdata_end)
if(NOT cdata_end EQUAL -1)
  message(FATAL_ERROR "${IN}: contains ']]>', which would end the CDATA section it goes in")
endif()
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.tmp" "/* generated from ${IN} by cmake/embed.cmake: do not edit */\nstatic const char ${NAME}[] = {\n${bytes}0x00};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
